import type { CompanyNode } from '@iot/contract';
import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** Companies (operate/company): v2/user/company/*; rows identified by comp_id. */
export const companyResource = defineResource<CompanyNode>({
  name: 'company',
  list: API.companyList.path,
  add: API.companyAdd.path,
  set: API.companySet.path,
  del: API.companyDel.path,
  idField: 'comp_id',
  delPayload: (row) => ({ comp_id: row.comp_id }),
});
