import type { MenuNode, UserRow } from '@iot/contract';
import { useSyncExternalStore } from 'react';

/** The signed-in account as login and v2/user/account/get answer it (CONTRACT §4). */
export type SessionUser = UserRow;

export interface SessionInfo {
  user: SessionUser;
  menus: MenuNode[];
}

const TOKEN_KEY = 'acc_token';
const listeners = new Set<() => void>();
let info: SessionInfo | null = null;

const emit = () => {
  for (const l of listeners) l();
};

export const getToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
};

export const setToken = (token: string) => {
  localStorage.setItem(TOKEN_KEY, token);
  emit();
};

export const getSessionInfo = () => info;

export const setSessionInfo = (next: SessionInfo | null) => {
  info = next;
  emit();
};

/** Forget the user but keep the token (other_api_ session expiry). */
export const clearUserInfo = () => setSessionInfo(null);

/** Forget token and user (401, logout). */
export const clearSession = () => {
  localStorage.removeItem(TOKEN_KEY);
  info = null;
  emit();
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useToken = () => useSyncExternalStore(subscribe, getToken);
export const useSessionInfo = () => useSyncExternalStore(subscribe, getSessionInfo);
