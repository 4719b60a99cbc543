import type { API } from '@iot/contract';
import { endpoint } from './api';

/**
 * The shell's own API entries by path, typed by the contract's registry (a changed path there
 * fails `tsc` here). Using `API` at run time would pull every zod schema into the login page's
 * JavaScript.
 */
export const LOGIN_KEY = endpoint<typeof API.loginKey>('v2/user/login/key');
export const LOGIN = endpoint<typeof API.login>('v2/user/login');
export const ACCOUNT_GET = endpoint<typeof API.accountGet>('v2/user/account/get');
export const LOGOUT = endpoint<typeof API.logout>('user/logout');
