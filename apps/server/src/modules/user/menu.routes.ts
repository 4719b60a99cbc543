import { API, ErrorCode } from '@iot/contract';
import { sessionOf } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { menuTreeFor } from './access.service.js';
import { deleteMenu, getMenus, insertMenu, isMenuKeyTaken, listMenus, updateMenu } from './menu.repository.js';

export const menuEntity: AuditEntity = { idField: 'menu_id', load: (conn, ids) => getMenus(conn, ids) };

const assertParent = async (conn: Parameters<typeof getMenus>[0], parentId: number, selfId?: number) => {
  if (parentId === 0) return;
  if (parentId === selfId) throw badParams({ menu_parent_id: 'cycle' });
  const [parent] = await getMenus(conn, [parentId]);
  if (!parent) throw badParams({ menu_parent_id: 'not_found' }, 'Parent menu does not exist');
  if (parent.menu_parent_id !== 0) throw badParams({ menu_parent_id: 'depth' }, 'Menus nest two levels deep');
};

export const menuRoutes: Route[] = [
  /** The whole tree for the super administrator; others see the menus they hold (what they may grant). */
  route(API.menuList, async (ctx, input) => {
    const session = sessionOf(ctx);
    let tree = await menuTreeFor(ctx.conn, session.isSuper, session.roleId);
    if (input.menu_name) {
      const needle = input.menu_name.toLowerCase();
      const match = (n: { menu_name: string; menu_cn_name: string; menu_key: string }) =>
        [n.menu_name, n.menu_cn_name, n.menu_key].some((s) => s.toLowerCase().includes(needle));
      tree = tree
        .filter((g) => match(g) || g.sub_menus.some(match))
        .map((g) => (match(g) ? g : { ...g, sub_menus: g.sub_menus.filter(match) }));
    }
    const count = tree.reduce((n, g) => n + 1 + g.sub_menus.length, 0);
    return { rows: tree, count };
  }),

  route(
    API.menuAdd,
    async (ctx, input) => {
      if (await isMenuKeyTaken(ctx.conn, input.menu_key)) throw new AppError(ErrorCode.CONFLICT, 'Menu key already exists');
      await assertParent(ctx.conn, input.menu_parent_id);
      const id = await insertMenu(ctx.conn, input);
      return { ...(await getMenus(ctx.conn, [id]))[0], sub_menus: [] };
    },
    menuEntity,
  ),

  route(
    API.menuSet,
    async (ctx, input) => {
      const [menu] = await getMenus(ctx.conn, [input.menu_id]);
      if (!menu) throw notFound('menu');
      const { menu_id, ...rest } = input;
      const changes = changesOf(rest);
      if (input.menu_parent_id !== undefined && input.menu_parent_id !== menu.menu_parent_id) {
        await assertParent(ctx.conn, input.menu_parent_id, menu_id);
        const hasChildren = (await listMenus(ctx.conn)).some((m) => m.menu_parent_id === menu_id);
        if (hasChildren && input.menu_parent_id !== 0)
          throw badParams({ menu_parent_id: 'depth' }, 'A group cannot move under another menu');
      }
      await updateMenu(ctx.conn, menu_id, changes);
      return { ...(await getMenus(ctx.conn, [menu_id]))[0], sub_menus: [] };
    },
    menuEntity,
  ),

  route(
    API.menuDel,
    async (ctx, input) => {
      const id = (input.menu_id ?? input.id) as number;
      const [menu] = await getMenus(ctx.conn, [id]);
      if (!menu) throw notFound('menu');
      if ((await listMenus(ctx.conn)).some((m) => m.menu_parent_id === id))
        throw badParams({ menu_id: 'has_children' }, 'Delete its children first');
      await deleteMenu(ctx.conn, id);
      return { deleted: 1 };
    },
    menuEntity,
  ),
];
