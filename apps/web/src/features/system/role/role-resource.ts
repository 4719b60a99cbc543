import { API, type RoleRow } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Roles (system/role): v2/user/role/*; rows identified by id. */
export const roleResource = defineResource<RoleRow>({
  name: 'role',
  list: API.roleList.path,
  add: API.roleAdd.path,
  set: API.roleSet.path,
  del: API.roleDel.path,
  idField: 'id',
});
