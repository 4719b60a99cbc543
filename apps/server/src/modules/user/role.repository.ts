import { API, type RoleRow, RoleType } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { RoleTable } from '../../platform/db/schema.js';
import { contains, defineList, eq, positive } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

export type RoleValues = Omit<RoleTable, 'id'>;

const selectRoles = (conn: Conn) =>
  conn
    .selectFrom('role as r')
    .leftJoin('company as c', 'c.comp_id', 'r.comp_id')
    .select([
      'r.id',
      'r.name',
      'r.cn_name',
      'r.state',
      'r.type',
      'r.data_scope',
      'r.comp_id',
      'c.comp_name',
      'r.gmt_create',
      sql<number[]>`array(select rm.menu_id from role_menu rm where rm.role_id = r.id order by rm.menu_id)`.as('menu_ids'),
      sql<number>`(select count(*)::int from app_user u where u.role_id = r.id)`.as('user_count'),
    ]);

/** Roles a caller sees: those of companies in scope, and the platform's system roles. */
const visibleRoles = (scope: Scope) => sql<SqlBool>`(r.type = ${RoleType.SYSTEM} or ${inScope(scope, 'r.comp_id')})`;

/** Default order: oldest first (id ascending). */
export const listRoles = defineList(API.roleList, {
  from: (conn) => conn.selectFrom('role as r'),
  scope: visibleRoles,
  filters: { name: contains('r.name', 'r.cn_name'), state: positive('r.state'), type: positive('r.type'), comp_id: eq('r.comp_id') },
  sorts: { id: 'r.id', name: 'r.name', state: 'r.state', type: 'r.type', gmt_create: 'r.gmt_create' },
  defaultSort: { column: 'r.id', direction: 'asc' },
  key: 'r.id',
  select: selectRoles,
  toRow: (r) => r,
});

export const getRoles = async (conn: Conn, ids: number[]): Promise<RoleRow[]> =>
  ids.length === 0 ? [] : await selectRoles(conn).where('r.id', 'in', ids).execute();

/** A role the caller can see (system roles are visible to all). */
export const getVisibleRole = async (conn: Conn, scope: Scope, id: number): Promise<RoleRow | undefined> =>
  selectRoles(conn).where('r.id', '=', id).where(visibleRoles(scope)).executeTakeFirst();

/** A role the caller may change: custom roles of companies in scope. */
export const getOwnedRole = async (conn: Conn, scope: Scope, id: number): Promise<RoleRow | undefined> =>
  selectRoles(conn).where('r.id', '=', id).where(inScope(scope, 'r.comp_id')).executeTakeFirst();

export const menuKeysOfRole = async (conn: Conn, roleId: number): Promise<string[]> =>
  (
    await conn
      .selectFrom('role_menu as rm')
      .innerJoin('menu as m', 'm.menu_id', 'rm.menu_id')
      .select('m.menu_key')
      .where('rm.role_id', '=', roleId)
      .execute()
  ).map((r) => r.menu_key);

export const insertRole = async (conn: Conn, values: RoleValues) =>
  (await conn.insertInto('role').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const updateRole = async (conn: Conn, id: number, values: Partial<RoleValues>) => {
  if (Object.keys(values).length > 0) await conn.updateTable('role').set(values).where('id', '=', id).execute();
};

export const setRoleMenus = async (conn: Conn, roleId: number, menuIds: number[]) => {
  await conn.deleteFrom('role_menu').where('role_id', '=', roleId).execute();
  if (menuIds.length > 0)
    await conn
      .insertInto('role_menu')
      .values(menuIds.map((menu_id) => ({ role_id: roleId, menu_id })))
      .execute();
};

export const deleteRole = async (conn: Conn, id: number) => {
  await conn.deleteFrom('role').where('id', '=', id).execute();
};
