import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Users (operate/user): v2/user/account/*; a change also changes who holds a role. */
export const userResource = defineResource({
  labels: 'user',
  list: API.accountList,
  add: API.accountAdd,
  set: API.accountSet,
  del: API.accountDel,
  id: 'id',
  affects: [API.roleRelaList],
});
