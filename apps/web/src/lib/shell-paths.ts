import type { API } from '@iot/contract';

/**
 * The shell's own API paths as literals whose types are checked against the
 * contract's registry (a changed path there fails `tsc` here). Using `API` at
 * run time would pull every zod schema into the login page's JavaScript.
 */
export const LOGIN_KEY_PATH: (typeof API)['loginKey']['path'] = 'v2/user/login/key';
export const LOGIN_PATH: (typeof API)['login']['path'] = 'v2/user/login';
export const ACCOUNT_GET_PATH: (typeof API)['accountGet']['path'] = 'v2/user/account/get';
export const LOGOUT_PATH: (typeof API)['logout']['path'] = 'user/logout';
