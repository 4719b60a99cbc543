import { DataScope, ErrorCode, type MenuNode } from '@iot/contract';
import type { Scope, Session } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { AppError, badParams } from '../../platform/errors.js';
import { buildMenuTree, getMenus, listMenus } from './menu.repository.js';
import { getVisibleRole, menuKeysOfRole } from './role.repository.js';

/** The menu tree a user sees: everything for the super administrator, else the role's menus. */
export const menuTreeFor = async (conn: Conn, isSuper: boolean, roleId: number | null): Promise<MenuNode[]> => {
  const menus = await listMenus(conn);
  if (isSuper) return buildMenuTree(menus, 'all');
  const keys = roleId ? await menuKeysOfRole(conn, roleId) : [];
  return buildMenuTree(menus, new Set(keys));
};

/**
 * No escalation (CONTRACT §5): a role may only hold menus its creator holds. Group
 * menus (those with children) come along with their granted children.
 */
export const assertMenusGrantable = async (conn: Conn, session: Session, menuIds: number[]): Promise<void> => {
  const menus = await getMenus(conn, menuIds);
  if (menus.length !== new Set(menuIds).size) throw badParams({ menu_ids: 'not_found' }, 'Unknown menu');
  if (session.isSuper) return;
  const all = await listMenus(conn);
  const parents = new Set(all.map((m) => m.menu_parent_id));
  for (const m of menus) {
    const isGroup = parents.has(m.menu_id);
    if (isGroup) {
      const children = all.filter((c) => c.menu_parent_id === m.menu_id);
      if (!children.some((c) => session.menuKeys.has(c.menu_key)))
        throw new AppError(ErrorCode.NO_PERMISSION, `Menu ${m.menu_key} is not yours to grant`);
    } else if (!session.menuKeys.has(m.menu_key)) {
      throw new AppError(ErrorCode.NO_PERMISSION, `Menu ${m.menu_key} is not yours to grant`);
    }
  }
};

/**
 * No escalation of scope either: an own-company administrator cannot hand out a role that
 * sees subsidiaries it cannot see itself.
 */
export const assertScopeGrantable = (session: Session, dataScope: number): void => {
  if (session.isSuper || dataScope === DataScope.OWN_COMPANY) return;
  if (session.dataScope === DataScope.OWN_COMPANY) throw new AppError(ErrorCode.NO_PERMISSION, 'That data scope is wider than yours');
};

/**
 * A user may be given a role that the creator can see (its company tree, or a system
 * role) whose menus the creator holds and whose scope is no wider than the creator's.
 */
export const assertRoleAssignable = async (conn: Conn, session: Session, scope: Scope, roleId: number): Promise<void> => {
  const role = await getVisibleRole(conn, scope, roleId);
  if (!role) throw badParams({ role_id: 'not_found' }, 'Role does not exist');
  if (session.isSuper) return;
  assertScopeGrantable(session, role.data_scope);
  const keys = await menuKeysOfRole(conn, roleId);
  if (keys.some((k) => !session.menuKeys.has(k) && !isGroupKey(k, session.menuKeys))) {
    throw new AppError(ErrorCode.NO_PERMISSION, 'That role holds menus you do not hold');
  }
};

/** `system` is a group key when some `system/...` key is held. */
const isGroupKey = (key: string, held: ReadonlySet<string>) => !key.includes('/') && [...held].some((k) => k.startsWith(`${key}/`));
