import { USER_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Roles (system/role): v2/user/role/*; rows identified by id. */
export const roleResource = defineResource({
  labels: 'role',
  list: USER_API.roleList,
  add: USER_API.roleAdd,
  set: USER_API.roleSet,
  del: USER_API.roleDel,
  id: 'id',
});
