import type { MenuNode } from '@iot/contract';
import type { i18n as I18n } from 'i18next';

/**
 * Menu label: our own translation `menu.<menu_key>` when we have one, else the
 * server's names (menus an administrator added): en menu_name, zh-CN
 * menu_cn_name, zh-TW menu_tw_name falling back to the cn name.
 */
export const menuLabel = (node: Pick<MenuNode, 'menu_key' | 'menu_name' | 'menu_cn_name' | 'menu_tw_name'>, i18n: I18n): string => {
  const key = `menu.${node.menu_key}`;
  if (i18n.exists(key)) return i18n.t(key);
  switch (i18n.language) {
    case 'zh-CN':
      return node.menu_cn_name || node.menu_name;
    case 'zh-TW':
      return node.menu_tw_name || node.menu_cn_name || node.menu_name;
    default:
      return node.menu_name || node.menu_cn_name;
  }
};
