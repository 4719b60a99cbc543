import { z } from 'zod';
import { deletedSchema } from '../schemas/common.js';
import {
  productAddInput,
  productCategorySchema,
  productDelInput,
  productGetInput,
  productListInput,
  productRowSchema,
  productSetInput,
  productShareInput,
  productShareListInput,
  productShareRowSchema,
  putUrlInput,
  putUrlOutput,
} from '../schemas/product.js';
import { type ApiDef, def, empty } from './define.js';

const PRODUCT_MENUS = ['product/iot'] as const;

/** IoT products, categories, sharing, uploads (issue 3). */
export const PRODUCT_API = {
  productGet: def('user/product/get', PRODUCT_MENUS, 'get', productGetInput, 'One product by id or pk (own or shared)', productRowSchema),
  productList: def(
    'v2/umh/admin/product/list',
    PRODUCT_MENUS,
    'list',
    productListInput,
    'Products of companies in scope and products shared with them',
    productRowSchema,
  ),
  productAdd: def('user/product/add', PRODUCT_MENUS, 'add', productAddInput, 'Create a product (pk generated)', productRowSchema),
  productSet: def('user/product/set', PRODUCT_MENUS, 'set', productSetInput, 'Change a product (owner scope only)', productRowSchema),
  productDelete: def(
    'v2/umh/admin/product/delete',
    PRODUCT_MENUS,
    'del',
    productDelInput,
    'Delete products without registered devices or licence codes (406 has_devices / has_licences otherwise)',
    deletedSchema,
  ),
  productCategoryGet: def(
    'user/product/category/get',
    'user',
    'get',
    empty,
    'Product categories (name, cn_name): all of them, as an array',
    z.array(productCategorySchema),
  ),
  productShareList: def(
    'v2/umh/admin/product/share/list',
    PRODUCT_MENUS,
    'list',
    productShareListInput,
    'Companies a product is shared with',
    productShareRowSchema,
  ),
  productShareAdd: def(
    'v2/umh/admin/product/share/add',
    PRODUCT_MENUS,
    'add',
    productShareInput,
    'Share a product with a company',
    productShareRowSchema,
  ),
  productShareDelete: def(
    'v2/umh/admin/product/share/delete',
    PRODUCT_MENUS,
    'del',
    productShareInput,
    'Stop sharing a product with a company',
    deletedSchema,
  ),
  putUrlGet: def(
    'v2/oss/upload/puturl/get',
    [...PRODUCT_MENUS, 'product/device'],
    'action',
    putUrlInput,
    'A short-lived signed URL to PUT one file to',
    putUrlOutput,
  ),
} as const satisfies Record<string, ApiDef>;
