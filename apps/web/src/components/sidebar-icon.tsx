import { MENU_TREE } from '@iot/contract';
import { createElement, type ReactElement, useEffect, useState } from 'react';
import type { MenuIconSet } from './menu-icons/icon-set';
import { icons as top } from './menu-icons/top';

/**
 * The sidebar's icons. The top-level groups' icons come with the layout; a screen's icon is in
 * its group's module (menu-icons/<group>.ts, as MENU_TREE places it), loaded when the sidebar
 * first shows an icon of that group: a page loads the icons of the open groups only, not all
 * ~60 (~14 KiB).
 */
const GROUP_LOADERS: Record<string, () => Promise<{ icons: MenuIconSet }>> = {
  system: () => import('./menu-icons/system'),
  product: () => import('./menu-icons/product'),
  applist: () => import('./menu-icons/applist'),
  operate: () => import('./menu-icons/operate'),
  info: () => import('./menu-icons/info'),
  user: () => import('./menu-icons/user'),
};

/** Icon name → the group module holding it (from MENU_TREE: the group its screens use it in). */
const GROUP_OF_ICON = new Map<string, string>(
  MENU_TREE.flatMap((group) => (group.key in GROUP_LOADERS ? (group.children ?? []).map((c) => [c.icon, group.key] as const) : [])),
);

const loaded = new Map<string, MenuIconSet>();
const loading = new Map<string, Promise<MenuIconSet>>();
const loadGroup = (group: string): Promise<MenuIconSet> => {
  let pending = loading.get(group);
  if (!pending) {
    pending = (GROUP_LOADERS[group] as () => Promise<{ icons: MenuIconSet }>)().then(
      ({ icons }) => {
        loaded.set(group, icons);
        return icons;
      },
      (err: unknown) => {
        loading.delete(group); // tried again on the next render
        throw err;
      },
    );
    loading.set(group, pending);
  }
  return pending;
};

/** An icon of a screen's group, drawn once its group module is there (an empty icon-sized box until then). */
const GroupIcon = ({ name, group, className }: { name: string; group: string; className?: string }) => {
  const [icons, setIcons] = useState(() => loaded.get(group));
  useEffect(() => {
    if (icons) return;
    let live = true;
    loadGroup(group).then(
      (set) => live && setIcons(set),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [group, icons]);
  const Icon = icons?.[name];
  return Icon ? (
    <Icon className={className} />
  ) : (
    <span className={className} style={{ display: 'inline-block', width: '1em' }} aria-hidden />
  );
};

/** The sidebar icon of a menu's `icon` name; nothing for a name we do not bundle. */
export const sidebarIcon = (name: string): ReactElement | undefined => {
  const topIcon = top[name];
  if (topIcon) return createElement(topIcon);
  const group = GROUP_OF_ICON.get(name);
  return group ? <GroupIcon name={name} group={group} /> : undefined;
};
