import { API, type MenuNode } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Menus (system/menu): v2/user/menu/*; the list is the tree, rows identified by menu_id. */
export const menuResource = defineResource<MenuNode>({
  name: 'menu',
  list: API.menuList.path,
  add: API.menuAdd.path,
  set: API.menuSet.path,
  del: API.menuDel.path,
  idField: 'menu_id',
  delPayload: (row) => ({ menu_id: row.menu_id }),
});
