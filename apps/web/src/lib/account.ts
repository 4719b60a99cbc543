import { call } from './api';
import { setSessionInfo } from './session';
import { ACCOUNT_GET } from './shell-paths';

/** The signed-in user with company, role and menus (v2/user/account/get). */
export const fetchAccount = (signal?: AbortSignal) => call(ACCOUNT_GET, {}, { signal });

/** Re-read the account so the sidebar follows a menu or role change at once. */
export const refreshSession = async () => {
  const account = await fetchAccount();
  setSessionInfo({ user: account.user, menus: account.menus ?? [] });
  return account;
};
