import { USER_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Menus (system/menu): v2/user/menu/*; the list is the tree, rows identified by menu_id. */
export const menuResource = defineResource({
  labels: 'menu_admin',
  list: USER_API.menuList,
  add: USER_API.menuAdd,
  set: USER_API.menuSet,
  del: USER_API.menuDel,
  id: 'menu_id',
  tree: 'sub_menus',
});
