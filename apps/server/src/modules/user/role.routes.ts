import { API, ErrorCode, idsOf, RoleType } from '@iot/contract';
import { sessionOf } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { assertMenusGrantable, assertScopeGrantable } from './access.service.js';
import { listUsers } from './account.repository.js';
import { deleteRole, getOwnedRole, getRoles, getVisibleRole, insertRole, listRoles, setRoleMenus, updateRole } from './role.repository.js';

export const roleEntity: AuditEntity = { idField: 'id', load: (conn, ids) => getRoles(conn, ids) };

export const roleRoutes: Route[] = [
  route(API.roleList, (ctx, input) => listRoles(ctx.conn, ctx.scope, input)),

  route(API.roleGet, async (ctx, input) => {
    const role = await getVisibleRole(ctx.conn, ctx.scope, input.id);
    if (!role) throw notFound('role');
    return role;
  }),

  route(API.roleRelaList, async (ctx, input) => {
    const role = await getVisibleRole(ctx.conn, ctx.scope, input.role_id);
    if (!role) throw notFound('role');
    // Paged and sorted as the user list (by its sortable columns).
    return listUsers(ctx.conn, ctx.scope, input);
  }),

  route(
    API.roleAdd,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      // comp_id is a declared company reference (checked by the transport); the default is the caller's own.
      const compId = input.comp_id ?? session.compId;
      if (input.type === RoleType.SYSTEM && !session.isSuper)
        throw new AppError(ErrorCode.NO_PERMISSION, 'Only the platform defines system roles');
      await assertMenusGrantable(ctx.conn, session, input.menu_ids);
      assertScopeGrantable(session, input.data_scope);
      const now = nowSeconds();
      const id = await insertRole(ctx.conn, {
        name: input.name,
        cn_name: input.cn_name,
        state: input.state,
        type: input.type,
        data_scope: input.data_scope,
        comp_id: compId,
        gmt_create: now,
        gmt_update: now,
      });
      await setRoleMenus(ctx.conn, id, [...new Set(input.menu_ids)]);
      return (await getRoles(ctx.conn, [id]))[0];
    },
    roleEntity,
  ),

  route(
    API.roleSet,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const role = await getOwnedRole(ctx.conn, ctx.scope, input.id);
      if (!role) throw notFound('role');
      if (!session.isSuper && (role.type === RoleType.SYSTEM || input.type === RoleType.SYSTEM))
        throw new AppError(ErrorCode.NO_PERMISSION);
      if (!session.isSuper && role.id === session.roleId) throw new AppError(ErrorCode.NO_PERMISSION, 'You cannot change your own role');
      const { id, menu_ids, ...rest } = input;
      if (rest.data_scope !== undefined) assertScopeGrantable(session, rest.data_scope);
      if (menu_ids) {
        await assertMenusGrantable(ctx.conn, session, menu_ids);
        await setRoleMenus(ctx.conn, id, [...new Set(menu_ids)]);
      }
      const changes = changesOf(rest);
      await updateRole(ctx.conn, id, { ...changes, gmt_update: nowSeconds() });
      return (await getRoles(ctx.conn, [id]))[0];
    },
    roleEntity,
  ),

  route(
    API.roleDel,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const ids = idsOf(input);
      for (const id of ids) {
        const role = await getOwnedRole(ctx.conn, ctx.scope, id);
        if (!role) throw notFound('role');
        if (!session.isSuper && role.type === RoleType.SYSTEM) throw new AppError(ErrorCode.NO_PERMISSION);
        if (role.user_count > 0) throw badParams({ id: 'in_use' }, `${role.user_count} users hold this role`);
        await deleteRole(ctx.conn, id);
      }
      return { deleted: ids.length };
    },
    roleEntity,
  ),
];
