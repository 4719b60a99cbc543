import { OTA_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** A product's firmware versions (v2/ota/admin/product/ver/*, the CRUD kit); rows identified by id. */
export const firmwareResource = defineResource({
  labels: 'firmware',
  list: OTA_API.productVerList,
  add: OTA_API.productVerAdd,
  set: OTA_API.productVerSet,
  del: OTA_API.productVerDel,
  id: 'id',
});
