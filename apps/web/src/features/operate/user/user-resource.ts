import { API, type UserRow } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Users (operate/user): v2/user/account/*; rows identified by the numeric id. */
export const userResource = defineResource<UserRow>({
  name: 'account',
  list: API.accountList.path,
  add: API.accountAdd.path,
  set: API.accountSet.path,
  del: API.accountDel.path,
  idField: 'id',
});
