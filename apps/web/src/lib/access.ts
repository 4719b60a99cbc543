import { type MenuNode, UserType } from '@iot/contract';
import { useMemo } from 'react';
import { useSessionInfo } from './session';

/** Routes every signed-in user may open, whatever their role holds. */
export const ALWAYS_ALLOWED = new Set(['dashboard', 'user/info']);

export const flattenMenus = (menus: MenuNode[]): MenuNode[] => menus.flatMap((m) => [m, ...flattenMenus(m.sub_menus ?? [])]);

/** Menu keys the user's role holds (shown or hidden in the sidebar alike). */
export const menuKeysOf = (menus: MenuNode[]): Set<string> => new Set(flattenMenus(menus).map((m) => m.menu_key));

export const useAccess = () => {
  const session = useSessionInfo();
  return useMemo(() => {
    const keys = menuKeysOf(session?.menus ?? []);
    const isSuper = session?.user.user_type === UserType.SUPER_ADMIN;
    return {
      isSuper,
      keys,
      can: (menuKey: string) => ALWAYS_ALLOWED.has(menuKey) || keys.has(menuKey),
    };
  }, [session]);
};
