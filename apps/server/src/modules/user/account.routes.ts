import { API, ErrorCode, idsOf, UserState, UserType } from '@iot/contract';
import { revokeUserTokens } from '../../platform/auth.js';
import type { RequestContext } from '../../platform/context.js';
import { sessionOf } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { hashPassword } from '../../platform/passwords.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { assertRoleAssignable } from './access.service.js';
import {
  deleteUser,
  getUserInScope,
  getUsers,
  insertUser,
  isEmailTaken,
  isPhoneTaken,
  isUserIdTaken,
  listUsers,
  updateUser,
} from './account.repository.js';

export const userEntity: AuditEntity = { idField: 'id', load: (conn, ids) => getUsers(conn, ids) };

/** 1101/1102/1103 before the unique index would refuse it (CONTRACT §3). */
const assertUnique = async (
  ctx: RequestContext,
  v: { user_id?: string; user_email?: string; user_phone?: string; user_phone_area?: string },
  exceptId?: number,
) => {
  if (v.user_id !== undefined && (await isUserIdTaken(ctx.conn, v.user_id, exceptId))) throw new AppError(ErrorCode.USER_ID_EXISTS);
  if (v.user_email && (await isEmailTaken(ctx.conn, v.user_email, exceptId))) throw new AppError(ErrorCode.EMAIL_EXISTS);
  if (v.user_phone && (await isPhoneTaken(ctx.conn, v.user_phone_area ?? '+86', v.user_phone, exceptId)))
    throw new AppError(ErrorCode.PHONE_EXISTS);
};

export const accountRoutes: Route[] = [
  route(API.accountList, (ctx, input) => listUsers(ctx.conn, ctx.scope, input)),

  route(
    API.accountAdd,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      if (input.user_type === UserType.SUPER_ADMIN && !session.isSuper) throw new AppError(ErrorCode.NO_PERMISSION);
      if (input.role_id) await assertRoleAssignable(ctx.conn, session, ctx.scope, input.role_id);
      await assertUnique(ctx, input);
      const now = nowSeconds();
      const { user_password, ...fields } = input;
      const id = await insertUser(ctx.conn, {
        ...fields,
        role_id: input.role_id ?? null,
        password_hash: await hashPassword(user_password),
        pending_registration: false,
        gmt_create: now,
        gmt_update: now,
      });
      return (await getUsers(ctx.conn, [id]))[0];
    },
    userEntity,
  ),

  route(
    API.accountSet,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const user = await getUserInScope(ctx.conn, ctx.scope, input.id);
      if (!user) throw notFound('user');
      const { id, user_password, ...rest } = input;
      const changes = changesOf(rest);
      if (
        id === session.userPk &&
        (changes.state === UserState.DISABLED || (changes.role_id !== undefined && changes.role_id !== user.role_id))
      ) {
        throw badParams({ id: 'self' }, 'You cannot disable yourself or change your own role');
      }
      if (!session.isSuper && (changes.user_type === UserType.SUPER_ADMIN || user.user_type === UserType.SUPER_ADMIN))
        throw new AppError(ErrorCode.NO_PERMISSION);
      if (changes.role_id) await assertRoleAssignable(ctx.conn, session, ctx.scope, changes.role_id);
      await assertUnique(ctx, { ...changes, user_phone_area: changes.user_phone_area ?? user.user_phone_area }, id);
      await updateUser(ctx.conn, id, {
        ...changes,
        ...(user_password ? { password_hash: await hashPassword(user_password) } : {}),
        gmt_update: nowSeconds(),
      });
      // A new password or a disabled account ends every session of that user.
      if (user_password || changes.state === UserState.DISABLED) await revokeUserTokens(ctx.conn, id);
      return (await getUsers(ctx.conn, [id]))[0];
    },
    userEntity,
  ),

  route(
    API.accountDel,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const ids = idsOf(input);
      for (const id of ids) {
        const user = await getUserInScope(ctx.conn, ctx.scope, id);
        if (!user) throw notFound('user');
        if (id === session.userPk) throw badParams({ id: 'self' }, 'You cannot delete yourself');
        if (!session.isSuper && user.user_type === UserType.SUPER_ADMIN) throw new AppError(ErrorCode.NO_PERMISSION);
        await deleteUser(ctx.conn, id);
      }
      return { deleted: ids.length };
    },
    userEntity,
  ),
];
