import { type ApiDef, type InputOf, idsOf, type OutputOf } from '@iot/contract';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { RequestContext, Scope } from './context.js';
import { sessionOf } from './context.js';
import type { Conn } from './db/database.js';
import type { DB } from './db/schema.js';
import { badParams, exists, notFound } from './errors.js';
import { defineList, type Filters, type ListFn } from './list.js';
import { inScope } from './scope.js';
import { type SecretFields, secretFieldsFor } from './secret-fields.js';
import type { SortFields, SortSpec } from './sorting.js';
import { nowSeconds } from './time.js';
import { type AuditEntity, type Route, route } from './transport.js';

/**
 * The CRUD kit: a plain resource is a declaration of its table (alias `t`), its company column,
 * filters and sorts; the kit answers its four paths — list (through the list kit), add, set
 * (absent fields kept), del — with scope, secrets, timestamps, reload and audit done here once.
 *
 * Conventions of a kit table: `id` serial key, one column per field of the add schema (objects
 * and arrays stored as jsonb), `gmt_create`/`gmt_update` unix seconds, `comp_id` when a company
 * owns the rows (the add default is the caller's company; rows outside the caller's scope are
 * "not found") or copies the company of the row's `parent`. Fields marked `secret()` are sealed on
 * write and answered masked.
 */
export interface CrudApis {
  list: ApiDef;
  add: ApiDef;
  set: ApiDef;
  del: ApiDef;
}

type Row<A extends CrudApis> = OutputOf<A['list']>;
type Stored = Record<string, unknown> & { id: number };
// biome-ignore lint/suspicious/noExplicitAny: the kit addresses its table by name; field types come from the contract.
type AnyDb = Kysely<any>;

export interface CrudSpec<A extends CrudApis> {
  /** The table (alias `t` in filters, sorts and `select`). */
  table: keyof DB & string;
  /** What "not found" names (`<what> does not exist`). */
  what: string;
  /** Set when a company owns the rows: its column in the table is `comp_id`. */
  owned?: boolean;
  /**
   * Which rows the caller sees when the table has no `comp_id` of its own: a condition on `t`
   * built in platform/scope.ts (e.g. a product's firmware versions, through the product's owner).
   * Rows outside it are not found to set and del, as owned rows outside the scope are.
   */
  scope?: (scope: Scope) => RawBuilder<SqlBool>;
  /**
   * Set when each row belongs to a row of another resource (an app's versions): `field` names
   * it, and it must exist within the caller's scope (406 `{field: not_found}`). The table's
   * `comp_id` copies the parent's company (on add, and on a set that changes `field`), so the
   * rows are scoped as owned rows are; the add schema takes no `comp_id`.
   */
  parent?: { field: string; of: { get: (conn: Conn, scope: Scope, ids: number[]) => Promise<unknown[]> } };
  /**
   * Columns the server makes for a new row besides its fields (keys it generates, their
   * hashes); `revealed` joins the add answer only, never a stored or listed row (a key shown
   * once).
   */
  generate?: (
    ctx: RequestContext,
    values: Record<string, unknown>,
  ) => { columns: Record<string, unknown>; revealed?: Record<string, unknown> };
  filters?: Filters<InputOf<A['list']>>;
  /** Fields `order_by` may name → columns; `id`, `gmt_create` and `gmt_update` are always sortable. */
  sorts?: SortFields;
  defaultSort?: SortSpec;
  /** The row query when rows show more than the table (e.g. counts); keep `t.*`. */
  select?: (conn: Conn) => SelectQueryBuilder<DB, never, Record<string, unknown>>;
  /** Stored row → answer (after the kit masks secrets). */
  toRow?: (stored: Stored) => Row<A>;
  /** Fields naming a row of another kit resource: it must exist within the caller's scope (406 `{field: not_found}`). */
  refs?: Record<string, { get: (conn: Conn, scope: Scope, ids: number[]) => Promise<unknown[]> }>;
  /**
   * Values no other row may share (409 `{field: exists}`, shown under `field`): `among` is the
   * condition on the table's columns that finds a row like the new one (its parent and the
   * value), checked on add and on every set after `check` (which may first refuse a parent the
   * caller must not see), the row itself excepted. `index` names the unique index that holds the
   * rule in the database, when one does: a concurrent request that passed the check too loses
   * there, and gets the same answer.
   */
  unique?: { field: string; message: string; index?: string; among: (next: Record<string, unknown>) => RawBuilder<SqlBool> }[];
  /** Rules across fields or against other rows, on the row as it will be (add: the input; set: current + changes). */
  check?: (ctx: RequestContext, next: Record<string, unknown>, current: Row<A> | undefined) => Promise<void> | void;
  /** Refuse deleting rows something still uses (throw a 406 naming why). */
  beforeDelete?: (ctx: RequestContext, rows: Row<A>[]) => Promise<void> | void;
}

export interface Crud<A extends CrudApis> {
  routes: Route[];
  list: ListFn<InputOf<A['list']>, Row<A>>;
  /** Rows by id within the scope (`{kind: 'all'}` for the server's own use). */
  get: (conn: Conn, scope: Scope, ids: number[]) => Promise<Row<A>[]>;
  /** The stored rows with secrets still sealed (the server's own use: `secrets.reveal`). */
  getStored: (conn: Conn, ids: number[]) => Promise<Stored[]>;
  secretsOf: (ctx: { services: RequestContext['services'] }) => SecretFields;
  entity: AuditEntity;
}

const toColumn = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
const columnsOf = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, toColumn(v)]));

export const defineCrud = <A extends CrudApis>(apis: A, spec: CrudSpec<A>): Crud<A> => {
  const addSchema = apis.add.input as unknown as z.ZodObject;
  const columns = Object.keys(addSchema.shape);
  const db = (conn: Conn) => conn as unknown as AnyDb;
  // Owned rows and rows of a parent both carry the company in `comp_id`.
  const scoped = spec.owned === true || spec.parent !== undefined;
  const select =
    spec.select ??
    ((conn: Conn) => {
      const q = db(conn).selectFrom(`${spec.table} as t`).selectAll('t');
      return (scoped ? q.leftJoin('company as c', 'c.comp_id', 't.comp_id').select('c.comp_name') : q) as never;
    });
  const secretsOf = (ctx: { services: RequestContext['services'] }) => secretFieldsFor(addSchema, ctx.services.secrets);
  const maskFields = secretFieldsFor(addSchema, { seal: (v) => v, open: (v) => v }).fields;
  const toRow = (stored: Stored): Row<A> => {
    const masked: Record<string, unknown> = { ...stored, comp_name: stored.comp_name ?? '' };
    for (const f of maskFields) if (typeof masked[f] === 'string' && masked[f] !== '') masked[f] = '******';
    if (!scoped) delete masked.comp_name;
    return (spec.toRow ? spec.toRow(masked as Stored) : masked) as Row<A>;
  };

  const get = async (conn: Conn, scope: Scope, ids: number[]): Promise<Row<A>[]> => {
    if (ids.length === 0) return [];
    let q = (select(conn) as unknown as SelectQueryBuilder<never, never, Stored>).where(sql`t.id`, 'in', ids);
    if (scoped) q = q.where(inScope(scope, 't.comp_id'));
    else if (spec.scope) q = q.where(spec.scope(scope));
    return (await q.orderBy(sql`t.id`).execute()).map((r) => toRow(r as Stored));
  };
  const getStored = async (conn: Conn, ids: number[]) =>
    ids.length === 0 ? [] : ((await db(conn).selectFrom(spec.table).selectAll().where('id', 'in', ids).execute()) as Stored[]);

  const list = defineList(apis.list, {
    from: (conn: Conn) => db(conn).selectFrom(`${spec.table} as t`),
    scope: scoped ? 't.comp_id' : spec.scope,
    filters: { ...(spec.owned ? { comp_id: (v: number) => sql<boolean>`t.comp_id = ${v}` } : {}), ...spec.filters } as never,
    sorts: { id: 't.id', gmt_create: 't.gmt_create', gmt_update: 't.gmt_update', ...spec.sorts },
    defaultSort: spec.defaultSort ?? { column: 't.id', direction: 'desc' },
    key: 't.id',
    select: (conn: Conn) => select(conn) as never,
    toRow: (r: unknown) => toRow(r as Stored),
  }) as unknown as Crud<A>['list'];

  const entity: AuditEntity = { idField: 'id', load: (conn, ids) => get(conn, { kind: 'all' }, ids) as never };

  const checkRefs = async (ctx: RequestContext, values: Record<string, unknown>) => {
    for (const [field, target] of Object.entries(spec.refs ?? {})) {
      const v = values[field];
      if (typeof v === 'number' && (await target.get(ctx.conn, ctx.scope, [v])).length === 0) throw badParams({ [field]: 'not_found' });
    }
  };

  /** The company of the parent row a value names, within the caller's scope. */
  const parentCompany = async (ctx: RequestContext, value: unknown): Promise<number> => {
    const { field, of } = spec.parent as NonNullable<typeof spec.parent>;
    const [found] = typeof value === 'number' ? ((await of.get(ctx.conn, ctx.scope, [value])) as { comp_id?: number }[]) : [];
    if (typeof found?.comp_id !== 'number') throw badParams({ [field]: 'not_found' });
    return found.comp_id;
  };

  const checkUnique = async (ctx: RequestContext, next: Record<string, unknown>, id?: number) => {
    for (const { field, message, among } of spec.unique ?? []) {
      let q = db(ctx.conn).selectFrom(spec.table).select('id').where(among(next));
      if (id !== undefined) q = q.where('id', '<>', id);
      if (await q.executeTakeFirst()) throw exists(field, message);
    }
  };

  /** A unique violation of a declared index (a concurrent request won) → the same 409 as the check. */
  const conflictOf = (err: unknown) => {
    const e = err as { code?: unknown; constraint?: unknown } | null;
    const hit = e?.code === '23505' ? spec.unique?.find((u) => u.index !== undefined && u.index === e.constraint) : undefined;
    return hit ? exists(hit.field, hit.message) : err;
  };

  const routes = [
    route(apis.list, (ctx, input) => list(ctx.conn, ctx.scope, input as never)),
    route(
      apis.add,
      async (ctx, input) => {
        const values = { ...(input as Record<string, unknown>) };
        if (spec.owned) values.comp_id ??= sessionOf(ctx).compId;
        if (spec.parent) values.comp_id = await parentCompany(ctx, values[spec.parent.field]);
        await checkRefs(ctx, values);
        await spec.check?.(ctx, values, undefined);
        await checkUnique(ctx, values);
        const now = nowSeconds();
        const made = spec.generate?.(ctx, values);
        const { id } = await db(ctx.conn)
          .insertInto(spec.table)
          .values({ ...columnsOf(secretsOf(ctx).seal(values)), ...made?.columns, gmt_create: now, gmt_update: now })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch((err: unknown) => {
            throw conflictOf(err);
          });
        const [row] = await get(ctx.conn, { kind: 'all' }, [id as number]);
        return made?.revealed ? { ...(row as Record<string, unknown>), ...made.revealed } : row;
      },
      entity,
    ),
    route(
      apis.set,
      async (ctx, input) => {
        const { id, ...rest } = input as Record<string, unknown> & { id: number };
        const [current] = await get(ctx.conn, ctx.scope, [id]);
        if (!current) throw notFound(spec.what);
        const changes = Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined && columns.includes(k)));
        if (spec.parent && changes[spec.parent.field] !== undefined) changes.comp_id = await parentCompany(ctx, changes[spec.parent.field]);
        await checkRefs(ctx, changes);
        const next = { ...(current as Record<string, unknown>), ...changes };
        await spec.check?.(ctx, next, current);
        await checkUnique(ctx, next, id);
        await db(ctx.conn)
          .updateTable(spec.table)
          .set({ ...columnsOf(secretsOf(ctx).seal(changes)), gmt_update: nowSeconds() })
          .where('id', '=', id)
          .execute()
          .catch((err: unknown) => {
            throw conflictOf(err);
          });
        return (await get(ctx.conn, { kind: 'all' }, [id]))[0];
      },
      entity,
    ),
    route(
      apis.del,
      async (ctx, input) => {
        const ids = idsOf(input as never);
        const rows = await get(ctx.conn, ctx.scope, ids);
        if (rows.length !== ids.length) throw notFound(spec.what);
        await spec.beforeDelete?.(ctx, rows);
        await db(ctx.conn).deleteFrom(spec.table).where('id', 'in', ids).execute();
        return { deleted: ids.length };
      },
      entity,
    ),
  ];
  return { routes, list, get, getStored, secretsOf, entity };
};
