import type { AccountGetOutput } from '@iot/contract';
import { call } from './api';
import { setSessionInfo } from './session';
import { ACCOUNT_GET_PATH } from './shell-paths';

/** The signed-in user with company, role and menus (v2/user/account/get). */
export const fetchAccount = async (signal?: AbortSignal): Promise<AccountGetOutput> =>
  (await call<AccountGetOutput>(ACCOUNT_GET_PATH, {}, { signal })).data;

/** Re-read the account so the sidebar follows a menu or role change at once. */
export const refreshSession = async () => {
  const account = await fetchAccount();
  setSessionInfo({ user: account.user, menus: account.menus ?? [] });
  return account;
};
