import { PRODUCT_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** IoT products (product/iot): user/product/*, v2/umh/admin/product/*; rows identified by id. */
export const productResource = defineResource({
  labels: 'product',
  list: PRODUCT_API.productList,
  add: PRODUCT_API.productAdd,
  set: PRODUCT_API.productSet,
  del: PRODUCT_API.productDelete,
  id: 'id',
});
