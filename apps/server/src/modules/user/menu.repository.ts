import type { MenuNode } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';
import type { MenuTable } from '../../platform/db/schema.js';

export type MenuRecord = Omit<MenuNode, 'sub_menus'>;
export type MenuValues = Omit<MenuTable, 'menu_id'>;

const COLUMNS = ['menu_id', 'menu_key', 'menu_name', 'menu_cn_name', 'menu_tw_name', 'menu_parent_id', 'icon', 'sort', 'is_show'] as const;

export const listMenus = async (conn: Conn): Promise<MenuRecord[]> =>
  conn.selectFrom('menu').select(COLUMNS).orderBy('menu_parent_id').orderBy('sort').orderBy('menu_id').execute();

export const getMenus = async (conn: Conn, ids: number[]): Promise<MenuRecord[]> =>
  ids.length === 0 ? [] : conn.selectFrom('menu').select(COLUMNS).where('menu_id', 'in', ids).execute();

export const insertMenu = async (conn: Conn, values: MenuValues) =>
  (await conn.insertInto('menu').values(values).returning('menu_id').executeTakeFirstOrThrow()).menu_id;

export const updateMenu = async (conn: Conn, id: number, values: Partial<MenuValues>) => {
  if (Object.keys(values).length > 0) await conn.updateTable('menu').set(values).where('menu_id', '=', id).execute();
};

export const deleteMenu = async (conn: Conn, id: number) => {
  await conn.deleteFrom('menu').where('menu_id', '=', id).execute();
};

export const isMenuKeyTaken = async (conn: Conn, key: string) =>
  (await conn.selectFrom('menu').select('menu_id').where('menu_key', '=', key).executeTakeFirst()) !== undefined;

/**
 * Nests menus by parent, keeping only `allowed` keys plus the groups above them
 * (a group is shown when one of its children is granted).
 */
export const buildMenuTree = (menus: MenuRecord[], allowed: ReadonlySet<string> | 'all'): MenuNode[] => {
  const byId = new Map<number, MenuNode>(menus.map((m) => [m.menu_id, { ...m, sub_menus: [] }]));
  const keep = new Set<number>();
  for (const m of menus) {
    if (allowed !== 'all' && !allowed.has(m.menu_key)) continue;
    let cur: MenuRecord | undefined = m;
    while (cur && !keep.has(cur.menu_id)) {
      keep.add(cur.menu_id);
      cur = byId.get(cur.menu_parent_id);
    }
  }
  const roots: MenuNode[] = [];
  for (const m of menus) {
    if (!keep.has(m.menu_id)) continue;
    const node = byId.get(m.menu_id)!;
    const parent = byId.get(m.menu_parent_id);
    if (parent && keep.has(parent.menu_id)) parent.sub_menus.push(node);
    else roots.push(node);
  }
  return roots;
};
