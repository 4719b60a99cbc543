import { z } from 'zod';
import { PHONE_AREA_DEFAULT, USER_TYPES, UserState } from '../constants.js';
import { email, id, int, oneOf, pagingSchema, phone, phoneArea, phoneFitsArea, safeString, text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';

/** CONTRACT §4: 2–64 characters of letters, digits and `_ . @ -`. */
export const USER_ID_PATTERN = /^[A-Za-z0-9_.@-]{2,64}$/;
export const accountId = () =>
  z.preprocess((v) => (typeof v === 'number' ? String(v) : v), safeString().trim().regex(USER_ID_PATTERN, 'format:user_id'));
/** encodePassword(user_id, password): lowercase hex SHA-256 (CONTRACT §4). */
export const encodedPassword = () => safeString().regex(/^[0-9a-f]{64}$/, 'format:encoded_password');

export const loginKeyOutput = z.object({
  key_id: z.string(),
  public_key: z.string(),
  alg: z.literal('RSA-OAEP-256'),
  server_time: z.number().int(),
});
export type LoginKey = z.infer<typeof loginKeyOutput>;

export const loginInput = z.object({
  device_system: text(32).default('web'),
  device_model: text(128).default(''),
  user_id: accountId(),
  user_password: safeString().min(16).max(2048),
  key_id: safeString().min(1).max(128),
});
export type LoginInput = z.infer<typeof loginInput>;

export const userRowSchema = z.object({
  id: z.number().int(),
  user_id: z.string(),
  user_name: z.string(),
  user_email: z.string(),
  user_phone: z.string(),
  user_phone_area: z.string(),
  validity_time: z.number().int().describe('Unix seconds after which the account expires; 0 = never'),
  remark: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  state: z.number().int(),
  user_type: z.number().int(),
  role_id: z.number().int().nullable(),
  role_name: z.string().nullable(),
  gmt_create: z.number().int(),
  gmt_update: z.number().int(),
});
export type UserRow = z.infer<typeof userRowSchema>;

const userFields = {
  user_name: text(64),
  user_email: email(),
  user_phone: phone(),
  user_phone_area: phoneArea(),
  validity_time: unixTime(),
  remark: text(512),
  comp_id: companyRef(),
  state: oneOf([UserState.ENABLED, UserState.DISABLED]),
  user_type: oneOf(USER_TYPES),
  role_id: id().nullable(),
};

export const accountAddInput = z
  .object({
    user_id: accountId(),
    user_password: encodedPassword(),
    ...userFields,
    user_name: userFields.user_name.default(''),
    user_email: userFields.user_email.default(''),
    user_phone: userFields.user_phone.default(''),
    user_phone_area: userFields.user_phone_area.default(PHONE_AREA_DEFAULT),
    validity_time: userFields.validity_time.default(0),
    remark: userFields.remark.default(''),
    state: userFields.state.default(UserState.ENABLED),
    user_type: userFields.user_type.default(9),
    role_id: userFields.role_id.optional(),
  })
  .superRefine(phoneFitsArea('user_phone', 'user_phone_area'));
export type AccountAddInput = z.infer<typeof accountAddInput>;

/**
 * Absent fields stay as they are; the password only changes when supplied. A phone sent
 * without its area is checked against the general rule only.
 */
export const accountSetInput = (
  z.object({
    id: id(),
    user_password: encodedPassword().optional(),
    ...Object.fromEntries(Object.entries(userFields).map(([k, s]) => [k, s.optional()])),
  }) as z.ZodObject<
    {
      id: ReturnType<typeof id>;
      user_password: z.ZodOptional<ReturnType<typeof encodedPassword>>;
    } & { [K in keyof typeof userFields]: z.ZodOptional<(typeof userFields)[K]> }
  >
).superRefine(phoneFitsArea('user_phone', 'user_phone_area'));
export type AccountSetInput = z.infer<typeof accountSetInput>;

export const accountListInput = pagingSchema.extend({
  user_id: text(64).optional(),
  user_name: text(64).optional(),
  comp_id: id().optional(),
  role_id: id().optional(),
  /** 0 (or the client's -1) = any state. */
  state: int().optional(),
  user_state: int().optional(),
});
export type AccountListInput = z.infer<typeof accountListInput>;

export const passwordModifyInput = z.object({
  user_id: accountId(),
  old_password: encodedPassword(),
  new_password: encodedPassword(),
});
export type PasswordModifyInput = z.infer<typeof passwordModifyInput>;
