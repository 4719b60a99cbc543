import { USER_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Companies (operate/company): v2/user/company/*; listed as a tree (`tree: 1`), rows identified by comp_id. */
export const companyResource = defineResource({
  labels: 'company',
  list: USER_API.companyList,
  add: USER_API.companyAdd,
  set: USER_API.companySet,
  del: USER_API.companyDel,
  id: 'comp_id',
  tree: 'children',
});
