import { DataScope } from '@iot/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope, Session } from './context.js';
import type { Conn } from './db/database.js';
import { badParams, notFound } from './errors.js';

export const scopeOf = (session: Session | null): Scope => {
  if (!session) return { kind: 'none' };
  if (session.isSuper) return { kind: 'all' };
  if (session.dataScope === DataScope.OWN_COMPANY) return { kind: 'own', compId: session.compId };
  return { kind: 'tree', compId: session.compId, path: session.compPath, compIds: session.treeCompIds };
};

/**
 * The one place company scope becomes SQL. Every company-owned table passes its
 * company column here; a row outside the scope simply does not match.
 */
export const inScope = (scope: Scope, column: string): RawBuilder<SqlBool> => {
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'none':
      return sql<SqlBool>`false`;
    case 'own':
      return sql<SqlBool>`${sql.ref(column)} = ${scope.compId}`;
    case 'tree':
      if (scope.compIds) return sql<SqlBool>`${sql.ref(column)} = any(${sql.val(scope.compIds)}::int[])`;
      return sql<SqlBool>`${sql.ref(column)} in (select scope_company.comp_id from company scope_company where scope_company.comp_path like ${`${scope.path}%`})`;
  }
};

/**
 * Rows of the platform itself (no company: the services' log lines): only a scope of everything
 * (the super administrator) sees them.
 */
export const platformRowsVisible = (scope: Scope): RawBuilder<SqlBool> => (scope.kind === 'all' ? sql<SqlBool>`true` : sql<SqlBool>`false`);

/** A company-tree scope listed as ids up to this many (more: the path condition instead). */
export const MAX_SCOPE_IDS = 5000;

/**
 * The companies of the subtree under a company path (an SQL expression for that path), as an id
 * array of at most MAX_SCOPE_IDS + 1: resolved once per session, so lists filter with `= any(ids)`.
 */
export const subtreeIdsOf = (compPath: RawBuilder<string>) =>
  sql<
    number[]
  >`array(select sc.comp_id from company sc where sc.comp_path like ${compPath} || '%' order by sc.comp_id limit ${MAX_SCOPE_IDS + 1})`;

/** The company-tree scope of a company (the benchmark's bare list; sessions resolve theirs in auth.ts). */
export const treeScopeOf = async (conn: Conn, compId: number): Promise<Scope> => {
  const row = await conn
    .selectFrom('company as c')
    .select(['c.comp_path', subtreeIdsOf(sql.ref('c.comp_path')).as('ids')])
    .where('c.comp_id', '=', compId)
    .executeTakeFirstOrThrow();
  return { kind: 'tree', compId, path: row.comp_path, compIds: row.ids.length <= MAX_SCOPE_IDS ? row.ids : null };
};

/**
 * The same rule for a row already in memory (the live stream's state changes): its company and
 * that company's materialised path.
 */
export const isCompanyVisible = (scope: Scope, row: { comp_id: number; comp_path: string }): boolean => {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'own':
      return row.comp_id === scope.compId;
    case 'tree':
      return row.comp_path.startsWith(scope.path);
    case 'none':
      return false;
  }
};

/**
 * Products a caller sees: those of companies in its scope, and those shared with a company
 * in its scope (read-only there). `product` is the alias of the product table in the query.
 */
export const productVisibleTo = (scope: Scope, product = 'p'): RawBuilder<SqlBool> =>
  scope.kind === 'all'
    ? sql<SqlBool>`true`
    : sql<SqlBool>`(${inScope(scope, `${product}.comp_id`)} or exists (select 1 from product_share scope_share where scope_share.product_id = ${sql.ref(`${product}.id`)} and ${inScope(scope, 'scope_share.comp_id')}))`;

/** Products the caller owns through its scope (may change, delete and share them). */
export const productOwnedBy = (scope: Scope, product = 'p'): RawBuilder<SqlBool> => inScope(scope, `${product}.comp_id`);

/**
 * Rows that name a product by its pk (a product's firmware versions) and belong to the company
 * owning that product: visible and changeable when the caller owns the product through its scope.
 */
export const productKeyOwnedBy = (scope: Scope, pkColumn: string): RawBuilder<SqlBool> =>
  scope.kind === 'all'
    ? sql<SqlBool>`true`
    : sql<SqlBool>`exists (select 1 from product scope_product where scope_product.pk = ${sql.ref(pkColumn)} and ${inScope(scope, 'scope_product.comp_id')})`;

/** Is this company visible to the caller? Used before writing a row that names a company. */
export const isCompanyInScope = async (conn: Conn, scope: Scope, compId: number): Promise<boolean> => {
  if (scope.kind === 'all') {
    const row = await conn.selectFrom('company').select('comp_id').where('comp_id', '=', compId).executeTakeFirst();
    return row !== undefined;
  }
  const row = await conn
    .selectFrom('company')
    .select('comp_id')
    .where('comp_id', '=', compId)
    .where(inScope(scope, 'company.comp_id'))
    .executeTakeFirst();
  return row !== undefined;
};

/**
 * The transport's check of a payload's company references (contract `companyRef()` fields):
 * every named company must exist in the caller's scope, else 406 `{<field>: "not_found"}`.
 */
export const assertCompanyRefs = async (conn: Conn, scope: Scope, input: Record<string, unknown>, fields: readonly string[]) => {
  const named = fields.filter((f) => typeof input[f] === 'number');
  if (named.length === 0) return;
  const ids = [...new Set(named.map((f) => input[f] as number))];
  const found = await conn
    .selectFrom('company')
    .select('comp_id')
    .where('comp_id', 'in', ids)
    .where(inScope(scope, 'company.comp_id'))
    .execute();
  const known = new Set(found.map((r) => r.comp_id));
  const missing = named.filter((f) => !known.has(input[f] as number));
  if (missing.length > 0) throw badParams(Object.fromEntries(missing.map((f) => [f, 'not_found'])), 'company does not exist');
};

export const assertCompanyInScope = async (conn: Conn, scope: Scope, compId: number): Promise<void> => {
  if (!(await isCompanyInScope(conn, scope, compId))) throw notFound('company');
};
