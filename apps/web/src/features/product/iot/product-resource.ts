import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** IoT products (product/iot): user/product/*, v2/umh/admin/product/*; rows identified by id. */
export const productResource = defineResource({
  labels: 'product',
  list: API.productList,
  add: API.productAdd,
  set: API.productSet,
  del: API.productDelete,
  id: 'id',
});
