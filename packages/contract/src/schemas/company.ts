import { z } from 'zod';
import { COMPANY_TYPES, CompanyState, PHONE_AREA_DEFAULT } from '../constants.js';
import { email, id, ids, int, oneOf, pagingSchema, phone, phoneArea, phoneFitsArea, requiredText, text } from './common.js';
import { companyRef } from './company-ref.js';
import { accountId, encodedPassword } from './user.js';

const latitude = () => z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().min(-90).max(90));
const longitude = () => z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().min(-180).max(180));

export const companyRowSchema = z.object({
  comp_id: z.number().int(),
  comp_name: z.string(),
  comp_short_name: z.string(),
  comp_key: z.string(),
  comp_type: z.number().int(),
  comp_parent_id: z.number().int(),
  comp_top_id: z.number().int(),
  comp_addr: z.string(),
  comp_person: z.string(),
  area: z.string(),
  area_id: z.number().int(),
  country: z.string(),
  province: z.string(),
  city: z.string(),
  dk: z.number().int().describe('device keys registered'),
  dk_limit: z.number().int().describe('device key limit; 0 = unlimited'),
  sys: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  comp_phone_area: z.string(),
  comp_phone: z.string(),
  sort: z.number().int().nullable().describe('order within its level; null goes last'),
  state: z.number().int(),
  gmt_create: z.number().int(),
  gmt_update: z.number().int(),
});
export type CompanyRow = z.infer<typeof companyRowSchema>;

const companyFields = {
  comp_name: requiredText(128),
  comp_short_name: text(64),
  comp_type: oneOf(COMPANY_TYPES),
  comp_parent_id: companyRef(),
  comp_addr: text(255),
  comp_person: text(64),
  area: text(64),
  area_id: int(),
  country: text(64),
  province: text(64),
  city: text(64),
  dk_limit: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(0).max(1e9)),
  sys: text(32),
  latitude: latitude().nullable(),
  longitude: longitude().nullable(),
  comp_phone_area: phoneArea(),
  comp_phone: phone(),
  sort: z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
    z.number().int().min(-1e6).max(1e6).nullable(),
  ),
  state: oneOf([CompanyState.ACTIVE, CompanyState.DISABLED]),
};

export const companyAddInput = z
  .object({
    ...companyFields,
    comp_short_name: companyFields.comp_short_name.default(''),
    comp_type: companyFields.comp_type.default(9),
    comp_addr: companyFields.comp_addr.default(''),
    comp_person: companyFields.comp_person.default(''),
    area: companyFields.area.default(''),
    area_id: companyFields.area_id.default(0),
    country: companyFields.country.default(''),
    province: companyFields.province.default(''),
    city: companyFields.city.default(''),
    dk_limit: companyFields.dk_limit.default(0),
    sys: companyFields.sys.default(''),
    latitude: companyFields.latitude.default(null),
    longitude: companyFields.longitude.default(null),
    comp_phone_area: companyFields.comp_phone_area.default(PHONE_AREA_DEFAULT),
    comp_phone: companyFields.comp_phone.default(''),
    sort: companyFields.sort.default(null),
    state: companyFields.state.default(CompanyState.ACTIVE),
  })
  .superRefine(phoneFitsArea('comp_phone', 'comp_phone_area'));
export type CompanyAddInput = z.infer<typeof companyAddInput>;

/** A phone sent without its area is checked against the general rule only. */
export const companySetInput = (
  z.object({
    comp_id: id(),
    ...Object.fromEntries(Object.entries(companyFields).map(([k, s]) => [k, s.optional()])),
    /** Approving a registration: 1 (active) on a pending company. */
  }) as z.ZodObject<
    { comp_id: ReturnType<typeof id> } & {
      [K in keyof typeof companyFields]: z.ZodOptional<(typeof companyFields)[K]>;
    }
  >
).superRefine(phoneFitsArea('comp_phone', 'comp_phone_area'));
export type CompanySetInput = z.infer<typeof companySetInput>;

export const companyListInput = pagingSchema.extend({
  comp_name: text(128).optional(),
  comp_type: int().optional(),
  comp_parent_id: id().optional(),
  state: int().optional(),
  /** 1: answer the whole scoped tree (roots with `children`), ignoring paging. */
  tree: int().optional(),
});
export type CompanyListInput = z.infer<typeof companyListInput>;

/** Deletes take `comp_id`, `id` or `ids`. */
export const companyDelInput = z
  .object({ comp_id: id().optional(), id: id().optional(), ids: ids().optional() })
  .refine((v) => v.comp_id !== undefined || v.id !== undefined || (v.ids?.length ?? 0) > 0, { message: 'required', path: ['comp_id'] });

/** Public self-registration: a pending company under the parent named by its key, with its first account. */
export const companyRegisterInput = z
  .object({
    parent_comp_key: requiredText(64),
    comp_name: requiredText(128),
    comp_short_name: text(64).default(''),
    comp_type: companyFields.comp_type.default(9),
    comp_person: requiredText(64),
    comp_phone_area: phoneArea().default(PHONE_AREA_DEFAULT),
    comp_phone: phone().default(''),
    country: text(64).default(''),
    comp_addr: text(255).default(''),
    user_id: accountId(),
    user_password: encodedPassword(),
    user_email: email().pipe(z.string().min(1, 'required')),
  })
  .superRefine(phoneFitsArea('comp_phone', 'comp_phone_area'));
export type CompanyRegisterInput = z.infer<typeof companyRegisterInput>;
