import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Roles (system/role): v2/user/role/*; rows identified by id. */
export const roleResource = defineResource({
  labels: 'role',
  list: API.roleList,
  add: API.roleAdd,
  set: API.roleSet,
  del: API.roleDel,
  id: 'id',
});
