import { z } from 'zod';
import { deletedSchema, delSchema } from '../schemas/common.js';

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

/** The verbs of a resource's four paths (`<base>/<verb>`); some SPEC areas say `query`, `modify`, `delete`. */
export interface CrudVerbs {
  list: string;
  add: string;
  set: string;
  del: string;
}
const CRUD_VERBS = { list: 'list', add: 'add', set: 'set', del: 'del' } as const;

/**
 * The four registry entries of a plain resource (see schemas/crud.ts), named `<name>List`, `<name>Add`,
 * `<name>Set`, `<name>Del`; spread them into an area's registry.
 */
export const crudApi = <
  const N extends string,
  const B extends string,
  S extends { list: z.ZodType; add: z.ZodType; set: z.ZodType; row: z.ZodType },
  const V extends CrudVerbs = typeof CRUD_VERBS,
>(
  name: N,
  base: B,
  access: Access,
  schemas: S,
  what: string,
  verbs?: V,
) => {
  const v = (verbs ?? CRUD_VERBS) as V;
  return {
    [`${name}List`]: def(`${base}/${v.list}`, access, 'list', schemas.list, `${what}: list`, schemas.row),
    [`${name}Add`]: def(`${base}/${v.add}`, access, 'add', schemas.add, `${what}: add`, schemas.row),
    [`${name}Set`]: def(`${base}/${v.set}`, access, 'set', schemas.set, `${what}: change (absent fields kept)`, schemas.row),
    [`${name}Del`]: def(`${base}/${v.del}`, access, 'del', delSchema, `${what}: delete by id or ids`, deletedSchema),
  } as {
    [K in `${N}List`]: ApiDef<S['list'], S['row']> & { path: `${B}/${V['list']}` };
  } & { [K in `${N}Add`]: ApiDef<S['add'], S['row']> & { path: `${B}/${V['add']}` } } & {
    [K in `${N}Set`]: ApiDef<S['set'], S['row']> & { path: `${B}/${V['set']}` };
  } & { [K in `${N}Del`]: ApiDef<typeof delSchema, typeof deletedSchema> & { path: `${B}/${V['del']}` } };
};
