import { icons as applist } from './menu-icons/applist';
import type { MenuIconSet } from './menu-icons/icon-set';
import { icons as info } from './menu-icons/info';
import { icons as operate } from './menu-icons/operate';
import { icons as product } from './menu-icons/product';
import { icons as system } from './menu-icons/system';
import { icons as top } from './menu-icons/top';
import { icons as user } from './menu-icons/user';

/**
 * Every bundled menu icon by name: the names used in MENU_TREE (plus the dashboard), kept in
 * menu-icons/ by the group of the tree that uses them so the sidebar loads a group's icons only
 * when it shows that group (sidebar-icon.tsx). Importing all of @ant-design/icons would cost
 * ~1 MB; a menu an administrator adds with another icon name simply shows none. This whole
 * catalogue is for the menu screen's icon picker.
 */
export const MENU_ICONS: MenuIconSet = { ...top, ...system, ...product, ...applist, ...operate, ...info, ...user };
