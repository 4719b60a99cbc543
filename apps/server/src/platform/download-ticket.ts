import type { Services } from './context.js';
import { nowSeconds } from './time.js';

/** Download tickets live this long; pages ask for fresh ones on every load or poll. */
export const TICKET_SECONDS = 15 * 60;

/**
 * The one download-ticket mechanism: a browser link cannot send `Authorization`, so a POST
 * answer hands out a sealed `{k: kind, v: value, exp}` (AES-256-GCM with the server secret:
 * unforgeable, unreadable) that the GET route accepts instead of the token. `value` is what
 * the download needs to answer only what the caller could see (a job id, a scope, filters).
 */
export const issueTicket = (services: Pick<Services, 'secrets'>, kind: string, value: unknown, seconds = TICKET_SECONDS): string =>
  services.secrets.seal(JSON.stringify({ k: kind, v: value, exp: nowSeconds() + seconds })).slice(3);

/** The value sealed in a ticket of this kind, or null (forged, expired, another kind). The caller checks its shape. */
export const readTicket = (services: Pick<Services, 'secrets'>, kind: string, ticket: string | undefined): unknown => {
  if (!ticket) return null;
  try {
    const t = JSON.parse(services.secrets.open(`v1:${ticket}`)) as { k?: unknown; v?: unknown; exp?: unknown };
    return t.k === kind && typeof t.exp === 'number' && t.exp >= nowSeconds() ? (t.v ?? null) : null;
  } catch {
    return null;
  }
};
