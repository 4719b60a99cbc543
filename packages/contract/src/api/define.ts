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

export interface ApiDef<I extends z.ZodType = z.ZodType, O extends z.ZodType | undefined = z.ZodType | undefined> {
  path: string;
  access: Access;
  kind: ApiKind;
  input: I;
  /** Shape of one row (lists) or of `data` (others); feeds OpenAPI, types the web client and the server's list kit. */
  output?: O;
  summary: string;
  /**
   * A call that can change a signed-in session (users, roles, menus, companies, tokens): when it
   * succeeds, every process drops its cached sessions. Other calls leave them cached.
   */
  changesSessions?: true;
}

export const empty = z.object({});
export const def = <const P extends string, I extends z.ZodType, O extends z.ZodType | undefined = undefined>(
  path: P,
  access: Access,
  kind: ApiKind,
  input: I,
  summary: string,
  output?: O,
): ApiDef<I, O> & { path: P } => ({ path, access, kind, input, output, summary });

/** Declares that a path can change sessions (see `ApiDef.changesSessions`). */
export const changesSessions = <D extends ApiDef>(d: D): D & { changesSessions: true } => ({ ...d, changesSessions: true });

/** The input a path's handler receives (after coercion and defaults). */
export type InputOf<D extends ApiDef> = z.output<D['input']>;
/** One row (lists) or the `data` (others) a path answers. */
export type OutputOf<D extends ApiDef> = NonNullable<D['output']> extends z.ZodType ? z.output<NonNullable<D['output']>> : unknown;
