import { z } from 'zod';

/**
 * Who may call a path: `public` (no token), `user` (any signed-in account),
 * `super` (the super administrator only), `service` (no user: the device side, with the
 * ingestion service key in `X-Service-Key`), or the menu keys of which the caller's
 * role must hold at least one (CONTRACT §5, map of SCREENS.md).
 */
export type Access = 'public' | 'user' | 'super' | 'service' | readonly string[];

/** list: paged rows + count; add/set/del: audited commands; get/action: anything else. */
export type ApiKind = 'list' | 'get' | 'add' | 'set' | 'del' | 'action';

export interface ApiDef<I extends z.ZodType = z.ZodType> {
  path: string;
  access: Access;
  kind: ApiKind;
  input: I;
  /** Shape of one row (lists) or of `data` (others); feeds OpenAPI. */
  output?: z.ZodType;
  summary: string;
}

export const empty = z.object({});
export const def = <const P extends string, I extends z.ZodType>(
  path: P,
  access: Access,
  kind: ApiKind,
  input: I,
  summary: string,
  output?: z.ZodType,
): ApiDef<I> & { path: P } => ({ path, access, kind, input, output, summary });
