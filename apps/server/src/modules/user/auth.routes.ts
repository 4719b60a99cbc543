import { API, CompanyState, ErrorCode, LOGIN_WINDOW_SECONDS, RoleState, UserState, UserType } from '@iot/contract';
import { issueToken, revokeToken, revokeUserTokens } from '../../platform/auth.js';
import { sessionOf } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { dummyVerify, hashPassword, verifyPassword } from '../../platform/passwords.js';
import { nowSeconds } from '../../platform/time.js';
import { type Route, route } from '../../platform/transport.js';
import { menuTreeFor } from './access.service.js';
import { findLoginUser, getPasswordHash, getUserByPk, updateUser } from './account.repository.js';
import { claimCipher } from './auth.repository.js';
import { getCompany, toCompanyRow } from './company.repository.js';
import { getRoles } from './role.repository.js';

export const authRoutes: Route[] = [
  route(API.loginKey, async (ctx) => {
    const key = await ctx.services.loginKeys.current();
    return { key_id: key.keyId, public_key: key.publicKey, alg: 'RSA-OAEP-256', server_time: nowSeconds() };
  }),

  route(API.login, async (ctx, input) => {
    const { config, throttle, loginKeys } = ctx.services;
    const accountBucket = { bucket: `account:${input.user_id.toLowerCase()}`, limit: config.loginMaxFailuresAccount };
    const addressBucket = { bucket: `address:${ctx.ip}`, limit: config.loginMaxFailuresAddress };
    // The attempt counts as a failure from here on (atomically, so simultaneous attempts cannot
    // all slip under the limit); a success gives it back below.
    const lockedFor = await throttle.reserve([accountBucket, addressBucket]);
    if (lockedFor > 0)
      throw new AppError(ErrorCode.TOO_MANY_REQUESTS, `Too many failed logins; try again in ${lockedFor} s`, { retry_after: lockedFor });

    const plain = await loginKeys.decrypt(input.key_id, input.user_password);
    if (plain === null) throw new AppError(ErrorCode.BAD_PARAMS, 'The login cipher cannot be read; fetch a new key');
    const [account, encoded, ts] = plain.split('\n');
    const now = nowSeconds();
    if (account !== input.user_id || !encoded || !/^[0-9a-f]{64}$/.test(encoded))
      throw new AppError(ErrorCode.BAD_PARAMS, 'The login cipher does not match the account');
    if (!ts || !/^\d+$/.test(ts) || Math.abs(Number(ts) - now) > LOGIN_WINDOW_SECONDS)
      throw new AppError(ErrorCode.BAD_PARAMS, 'The login cipher is stale; check the clock and retry');
    if (!(await claimCipher(ctx.conn, input.user_password, now)))
      throw new AppError(ErrorCode.BAD_PARAMS, 'The login cipher was already used');

    const user = await findLoginUser(ctx.conn, input.user_id);
    if (!user) {
      await dummyVerify(encoded);
      throw new AppError(ErrorCode.WRONG_ACCOUNT);
    }
    if (!(await verifyPassword(user.password_hash, encoded))) throw new AppError(ErrorCode.WRONG_ACCOUNT);
    await throttle.succeeded(accountBucket.bucket, [addressBucket]);
    if (user.state !== UserState.ENABLED) throw new AppError(ErrorCode.ACCOUNT_DISABLED);
    if (user.validity_time > 0 && user.validity_time <= now) throw new AppError(ErrorCode.ACCOUNT_EXPIRED);
    const company = await getCompany(ctx.conn, user.comp_id);
    if (!company || company.state !== CompanyState.ACTIVE) throw new AppError(ErrorCode.NO_COMPANY);
    const [role] = user.role_id ? await getRoles(ctx.conn, [user.role_id]) : [];
    if (role && role.state !== RoleState.OPEN) throw new AppError(ErrorCode.ACCOUNT_DISABLED, 'The account’s role is disabled');

    const { token, expiresAt } = await issueToken(ctx.conn, user.id, config.tokenTtlSeconds, {
      deviceSystem: input.device_system,
      deviceModel: input.device_model,
      ip: ctx.ip,
    });
    return {
      acc_token: token,
      expires_at: expiresAt,
      user: await getUserByPk(ctx.conn, user.id),
      menus: await menuTreeFor(ctx.conn, user.user_type === UserType.SUPER_ADMIN, user.role_id),
    };
  }),

  route(API.logout, async (ctx) => {
    await revokeToken(ctx.conn, sessionOf(ctx).tokenHash);
    return null;
  }),

  route(API.accountGet, async (ctx) => {
    const session = sessionOf(ctx);
    const user = await getUserByPk(ctx.conn, session.userPk);
    const company = await getCompany(ctx.conn, session.compId);
    const [role] = session.roleId ? await getRoles(ctx.conn, [session.roleId]) : [];
    return {
      user,
      company: company ? toCompanyRow(company) : null,
      role: role ?? null,
      menus: await menuTreeFor(ctx.conn, session.isSuper, session.roleId),
    };
  }),

  route(API.passwordModify, async (ctx, input) => {
    const session = sessionOf(ctx);
    if (input.user_id.toLowerCase() !== session.userId.toLowerCase())
      throw new AppError(ErrorCode.NO_PERMISSION, 'Only your own password can be changed here');
    const stored = await getPasswordHash(ctx.conn, session.userPk);
    if (!stored || !(await verifyPassword(stored, input.old_password))) throw new AppError(ErrorCode.WRONG_PASSWORD);
    await updateUser(ctx.conn, session.userPk, { password_hash: await hashPassword(input.new_password), gmt_update: nowSeconds() });
    await revokeUserTokens(ctx.conn, session.userPk, session.tokenHash);
    return null;
  }),
];
