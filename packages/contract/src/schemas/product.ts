import { z } from 'zod';
import type { Access } from '../api/define.js';
import { id, ids, int, jsonRuleOf, oneOf, pagingSchema, requiredText, safeString, text } from './common.js';
import { companyRef } from './company-ref.js';

/**
 * Node type of a product: how its devices reach the cloud. 1 connects directly,
 * 2 is a gateway other devices connect through, 3 is a sub-device behind a gateway.
 */
export const NodeType = { DIRECT: 1, GATEWAY: 2, SUB_DEVICE: 3 } as const;
export const NODE_TYPES = Object.values(NodeType);

/** OEM flag: 1 the product is sold under a partner's brand, 0 not. */
export const OEM_VALUES = [0, 1] as const;

/** Folders an upload may go to: product images, xlsx imports (device registration). */
export const UPLOAD_FOLDERS = ['images', 'imports'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];
/**
 * Who may upload to each folder (`POST /api/v2/oss/upload`, put URLs): product images
 * from the product and app screens (product images, app config images), xlsx imports from
 * device registration.
 */
export const UPLOAD_FOLDER_ACCESS: Record<UploadFolder, Access> = {
  images: ['product/iot', 'applist/app'],
  imports: ['product/device'],
};

/**
 * Checks a product `attr` (SPEC §3: a JSON string): it must parse to an object, and
 * no attribute value may be empty (SPEC §5 "attribute value cannot be empty"); keys and
 * strings as every JSON input (`jsonRuleOf`). Answers the rule that failed, or null.
 */
export const attrRuleOf = (value: string): 'format:json' | 'format:attr_value' | ReturnType<typeof jsonRuleOf> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'format:json';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'format:json';
  const isEmpty = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');
  if (Object.values(parsed).some(isEmpty)) return 'format:attr_value';
  return jsonRuleOf(parsed);
};

/** `attr`: a JSON object as text; empty text means `{}`. Stored compact. */
export const attrField = () =>
  z.preprocess(
    (v, ctx) => {
      if (v === null || typeof v !== 'object') return v;
      // Checked before stringifying: a hostile nesting would overflow JSON.stringify's stack.
      const rule = jsonRuleOf(v);
      if (!rule) return JSON.stringify(v);
      ctx.addIssue({ code: 'custom', message: rule, input: v });
      return z.NEVER;
    },
    safeString()
      .trim()
      .max(16_384)
      .transform((v) => (v === '' ? '{}' : v))
      .superRefine((v, ctx) => {
        const rule = attrRuleOf(v);
        if (rule) ctx.addIssue({ code: 'custom', message: rule });
      })
      .transform((v) => JSON.stringify(JSON.parse(v))),
  );

export const productRowSchema = z.object({
  id: z.number().int(),
  pk: z.string().describe('product key devices register under; generated, unique'),
  name: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  node_type: z.number().int().describe('1 directly connected device, 2 gateway, 3 sub-device'),
  category: z.number().int().nullable().describe('category id'),
  category_name: z.string(),
  category_cn_name: z.string(),
  img: z.string().describe('storage key of the image (served at /api/v2/oss/file/<key>)'),
  img_url: z.string(),
  remark: z.string(),
  sys: z.string(),
  attr: z.string().describe('JSON object as text'),
  oem: z.number().int(),
  link_id: z.string(),
  link_type: z.number().int(),
  batch_id: z.string(),
  /** true when the caller sees the product only because it is shared with its company. */
  shared: z.boolean(),
  create_time: z.number().int(),
  update_time: z.number().int(),
});
export type ProductRow = z.infer<typeof productRowSchema>;

/** An uploaded image's storage key (`images/<random>.<ext>`) or '' (none). */
export const imgKey = () =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    safeString()
      .trim()
      .max(200)
      .regex(/^([a-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8})?$/, 'format:storage_key'),
  );

const productFields = {
  name: requiredText(128),
  comp_id: companyRef(),
  node_type: oneOf(NODE_TYPES),
  /** Category id (`category_id` is accepted too). */
  category: id().nullable(),
  img: imgKey(),
  remark: text(500),
  sys: text(32),
  attr: attrField(),
  oem: oneOf(OEM_VALUES),
  link_id: text(64),
  link_type: int(),
  batch_id: text(64),
};

/** `category_id` is an alias of `category` (the table's column name). */
const categoryAlias = (v: unknown) => {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (o.category === undefined && o.category_id !== undefined) return { ...o, category: o.category_id };
  }
  return v;
};

export const productAddInput = z.preprocess(
  categoryAlias,
  z.object({
    ...productFields,
    node_type: productFields.node_type.default(NodeType.DIRECT),
    category: productFields.category.default(null),
    img: productFields.img.default(''),
    remark: productFields.remark.default(''),
    sys: productFields.sys.default(''),
    attr: productFields.attr.default('{}'),
    oem: productFields.oem.default(0),
    link_id: productFields.link_id.default(''),
    link_type: productFields.link_type.default(0),
    batch_id: productFields.batch_id.default(''),
  }),
);
export type ProductAddInput = z.infer<typeof productAddInput>;

/** `set` changes the given fields; the company (owner) and the pk never change. */
export const productSetInput = z.preprocess(
  categoryAlias,
  z.object({
    id: id(),
    name: productFields.name.optional(),
    node_type: productFields.node_type.optional(),
    category: productFields.category.optional(),
    img: productFields.img.optional(),
    remark: productFields.remark.optional(),
    sys: productFields.sys.optional(),
    attr: productFields.attr.optional(),
    oem: productFields.oem.optional(),
    link_id: productFields.link_id.optional(),
    link_type: productFields.link_type.optional(),
    batch_id: productFields.batch_id.optional(),
  }),
);
export type ProductSetInput = z.infer<typeof productSetInput>;

/** One product by `id` or by `pk`. */
export const productGetInput = z
  .object({ id: id().optional(), pk: text(64).optional() })
  .refine((v) => v.id !== undefined || (v.pk !== undefined && v.pk !== ''), { message: 'required', path: ['id'] });
export type ProductGetInput = z.infer<typeof productGetInput>;

export const productListInput = pagingSchema.extend({
  name: text(128).optional(),
  pk: text(64).optional(),
  comp_id: id().optional(),
  category_id: id().optional(),
  node_type: int().optional(),
  oem: int().optional(),
});
export type ProductListInput = z.infer<typeof productListInput>;

export const PRODUCT_SORT_FIELDS = [
  'id',
  'name',
  'pk',
  'comp_id',
  'node_type',
  'category_id',
  'oem',
  'create_time',
  'update_time',
] as const;

export const productDelInput = z
  .object({ id: id().optional(), ids: ids().optional() })
  .refine((v) => v.id !== undefined || (v.ids !== undefined && v.ids.length > 0), { message: 'required', path: ['id'] });

export const productCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  cn_name: z.string(),
  sort: z.number().int(),
});
export type ProductCategory = z.infer<typeof productCategorySchema>;

export const productShareRowSchema = z.object({
  product_id: z.number().int(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  gmt_create: z.number().int(),
});
export type ProductShareRow = z.infer<typeof productShareRowSchema>;

export const productShareListInput = pagingSchema.extend({ product_id: id() });
export type ProductShareListInput = z.infer<typeof productShareListInput>;
export const productShareInput = z.object({ product_id: id(), comp_id: companyRef() });
export type ProductShareInput = z.infer<typeof productShareInput>;

/** A signed URL to `PUT` one file to (SPEC §7 `v2/oss/upload/puturl/get`). */
export const putUrlInput = z.object({
  /** The file name; its extension decides the allowed type. */
  name: requiredText(200),
  zone: text(64).default(''),
  region: text(64).default(''),
  folder: z.enum(UPLOAD_FOLDERS).default('images'),
});
export type PutUrlInput = z.infer<typeof putUrlInput>;
export const putUrlOutput = z.object({
  put_url: z.string(),
  key: z.string(),
  url: z.string(),
  expires_at: z.number().int(),
});
export type PutUrlOutput = z.infer<typeof putUrlOutput>;

/** What an upload answers. */
export const uploadOutput = z.object({ key: z.string(), url: z.string(), size: z.number().int(), name: z.string() });
export type UploadOutput = z.infer<typeof uploadOutput>;

/** Where a stored file is served (images are not secret; keys are unguessable). */
export const FILE_URL_PREFIX = '/api/v2/oss/file/';
export const fileUrlOf = (key: string) => (key ? `${FILE_URL_PREFIX}${key}` : '');
