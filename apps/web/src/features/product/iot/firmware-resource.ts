import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** A product's firmware versions (v2/ota/admin/product/ver/*, the CRUD kit); rows identified by id. */
export const firmwareResource = defineResource({
  labels: 'firmware',
  list: API.productVerList,
  add: API.productVerAdd,
  set: API.productVerSet,
  del: API.productVerDel,
  id: 'id',
});
