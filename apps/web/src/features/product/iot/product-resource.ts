import { API, type ProductRow } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** IoT products (product/iot): user/product/*, v2/umh/admin/product/*; rows identified by id. */
export const productResource = defineResource<ProductRow>({
  name: 'product',
  list: API.productList.path,
  add: API.productAdd.path,
  set: API.productSet.path,
  del: API.productDelete.path,
  idField: 'id',
});
