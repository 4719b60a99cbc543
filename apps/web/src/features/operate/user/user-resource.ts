import { USER_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Users (operate/user): v2/user/account/*; a change also changes who holds a role. */
export const userResource = defineResource({
  labels: 'user',
  list: USER_API.accountList,
  add: USER_API.accountAdd,
  set: USER_API.accountSet,
  del: USER_API.accountDel,
  id: 'id',
  affects: [USER_API.roleRelaList],
});
