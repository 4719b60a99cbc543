import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Companies (operate/company): v2/user/company/*; listed as a tree (`tree: 1`), rows identified by comp_id. */
export const companyResource = defineResource({
  labels: 'company',
  list: API.companyList,
  add: API.companyAdd,
  set: API.companySet,
  del: API.companyDel,
  id: 'comp_id',
  tree: 'children',
});
