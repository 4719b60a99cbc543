import type { DownloadDef } from '@iot/contract';
import type { Scope, Services } from './context.js';
import { nowSeconds } from './time.js';

/** Download tickets live this long; pages ask for fresh ones on every load or poll. */
export const TICKET_SECONDS = 15 * 60;

/**
 * What a ticket grants on one declared download: the scope it answers in (the caller's, when
 * the POST that offered the link ran) and input fields it fixes (a job id, the filters of a
 * licence export), which the query may not change.
 */
export interface TicketGrant {
  scope: Scope;
  input?: Record<string, unknown>;
}

const isScope = (v: unknown): v is Scope =>
  typeof v === 'object' && v !== null && ['all', 'tree', 'own', 'none'].includes((v as { kind?: unknown }).kind as string);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The one download-ticket mechanism: a browser link cannot send `Authorization`, so a POST
 * answer hands out a sealed `{k: download path, s: scope, i: fixed input, exp}` (AES-256-GCM
 * with the server secret: unforgeable, unreadable) that platform/downloads.ts accepts on that
 * download (declared `auth: 'ticket' | 'either'`) instead of the token.
 */
export const issueTicket = (
  services: Pick<Services, 'secrets'>,
  download: Pick<DownloadDef, 'path'>,
  grant: TicketGrant,
  seconds = TICKET_SECONDS,
): string =>
  services.secrets.seal(JSON.stringify({ k: download.path, s: grant.scope, i: grant.input ?? {}, exp: nowSeconds() + seconds })).slice(3);

/** The grant sealed in a ticket for this download, or null (forged, expired, issued for another download). */
export const readTicket = (
  services: Pick<Services, 'secrets'>,
  download: Pick<DownloadDef, 'path'>,
  ticket: string | undefined,
): TicketGrant | null => {
  if (!ticket) return null;
  try {
    const t = JSON.parse(services.secrets.open(`v1:${ticket}`)) as { k?: unknown; s?: unknown; i?: unknown; exp?: unknown };
    if (t.k !== download.path || typeof t.exp !== 'number' || t.exp < nowSeconds()) return null;
    return isScope(t.s) && isRecord(t.i) ? { scope: t.s, input: t.i } : null;
  } catch {
    return null;
  }
};
