import crypto from 'node:crypto';
import { API, type CompanyRow } from '@iot/contract';
import { sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { CompanyTable } from '../../platform/db/schema.js';
import { contains, defineList, eq, positive } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

const COLUMNS = [
  'comp_id',
  'comp_name',
  'comp_short_name',
  'comp_key',
  'comp_type',
  'comp_parent_id',
  'comp_top_id',
  'comp_addr',
  'comp_person',
  'area',
  'area_id',
  'country',
  'province',
  'city',
  'dk',
  'dk_limit',
  'sys',
  'latitude',
  'longitude',
  'comp_phone_area',
  'comp_phone',
  'sort',
  'state',
  'gmt_create',
  'gmt_update',
] as const;

export type CompanyRecord = CompanyRow & { comp_path: string };
export type CompanyValues = Omit<CompanyTable, 'comp_id' | 'comp_path' | 'comp_top_id' | 'comp_key' | 'dk'>;

export const newCompanyKey = () => crypto.randomBytes(9).toString('base64url');

const selectCompanies = (conn: Conn) => conn.selectFrom('company as c').select([...COLUMNS.map((k) => `c.${k}` as const), 'c.comp_path']);

/** Default order: `sort` ascending with an empty sort last in its level, then id. */
export const listCompanies = defineList(API.companyList, {
  from: (conn) => conn.selectFrom('company as c'),
  scope: 'c.comp_id',
  filters: {
    comp_name: contains('c.comp_name'),
    comp_type: positive('c.comp_type'),
    comp_parent_id: eq('c.comp_parent_id'),
    state: positive('c.state'),
  },
  sorts: {
    comp_id: 'c.comp_id',
    comp_name: 'c.comp_name',
    comp_type: 'c.comp_type',
    sort: { column: 'c.sort', nullable: true },
    dk_limit: 'c.dk_limit',
    state: 'c.state',
    gmt_create: 'c.gmt_create',
  },
  defaultSort: { column: 'c.sort', direction: 'asc', nullable: true },
  key: 'c.comp_id',
  select: selectCompanies,
  toRow: ({ comp_path: _path, ...row }) => row,
});

export const getCompanies = async (conn: Conn, ids: number[]): Promise<CompanyRecord[]> =>
  ids.length === 0 ? [] : await selectCompanies(conn).where('c.comp_id', 'in', ids).execute();

export const getCompany = async (conn: Conn, compId: number): Promise<CompanyRecord | undefined> => (await getCompanies(conn, [compId]))[0];

export const getCompanyInScope = async (conn: Conn, scope: Scope, compId: number): Promise<CompanyRecord | undefined> =>
  (await conn
    .selectFrom('company')
    .select([...COLUMNS, 'comp_path'])
    .where('comp_id', '=', compId)
    .where(inScope(scope, 'company.comp_id'))
    .executeTakeFirst()) as CompanyRecord | undefined;

export const getCompanyByKey = async (conn: Conn, compKey: string) =>
  conn
    .selectFrom('company')
    .select([...COLUMNS, 'comp_path'])
    .where('comp_key', '=', compKey)
    .executeTakeFirst();

export const isCompanyNameTaken = async (conn: Conn, parentId: number, name: string, exceptId?: number) => {
  let q = conn.selectFrom('company').select('comp_id').where('comp_parent_id', '=', parentId).where('comp_name', '=', name);
  if (exceptId) q = q.where('comp_id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

/** Inserts a company under `parent` (null: the platform root) and sets its path. */
export const insertCompany = async (conn: Conn, values: CompanyValues, parent: CompanyRecord | null): Promise<number> => {
  const { comp_id } = await conn
    .insertInto('company')
    .values({ ...values, comp_parent_id: parent?.comp_id ?? 0, comp_key: newCompanyKey(), comp_path: '', comp_top_id: 0, dk: 0 })
    .returning('comp_id')
    .executeTakeFirstOrThrow();
  const path = `${parent?.comp_path ?? '/'}${comp_id}/`;
  // The top company is the first level under the platform root (or the root itself).
  const top = Number(path.split('/').filter(Boolean)[1] ?? comp_id);
  await conn.updateTable('company').set({ comp_path: path, comp_top_id: top }).where('comp_id', '=', comp_id).execute();
  return comp_id;
};

export const updateCompany = async (conn: Conn, compId: number, values: Partial<CompanyValues>) => {
  if (Object.keys(values).length === 0) return;
  await conn.updateTable('company').set(values).where('comp_id', '=', compId).execute();
};

/** Moves a subtree: every descendant's path prefix changes with it. */
export const moveCompany = async (conn: Conn, company: CompanyRecord, newParent: CompanyRecord) => {
  const newPath = `${newParent.comp_path}${company.comp_id}/`;
  const top = Number(newPath.split('/').filter(Boolean)[1] ?? company.comp_id);
  await sql`
    update company set
      comp_path = ${newPath} || substr(comp_path, ${company.comp_path.length + 1}),
      comp_top_id = ${top}
    where comp_path like ${`${company.comp_path}%`}
  `.execute(conn);
  await conn.updateTable('company').set({ comp_parent_id: newParent.comp_id }).where('comp_id', '=', company.comp_id).execute();
};

export const countChildren = async (conn: Conn, compId: number) =>
  Number(
    (
      await conn
        .selectFrom('company')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('comp_parent_id', '=', compId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const countCompanyUsers = async (conn: Conn, compId: number) =>
  Number(
    (
      await conn
        .selectFrom('app_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('comp_id', '=', compId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const deleteCompany = async (conn: Conn, compId: number) => {
  await conn.deleteFrom('role').where('comp_id', '=', compId).execute();
  await conn.deleteFrom('company').where('comp_id', '=', compId).execute();
};

export const toCompanyRow = (r: CompanyRecord): CompanyRow => {
  const { comp_path: _path, ...row } = r;
  return row;
};
