import { z } from 'zod';
import { DataScope, RoleState, RoleType } from '../constants.js';
import { id, ids, int, oneOf, pagingSchema, requiredText, text } from './common.js';
import { companyRef } from './company-ref.js';

export const roleRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  cn_name: z.string(),
  state: z.number().int(),
  type: z.number().int().describe('1 system, 2 custom'),
  data_scope: z.number().int().describe('1 own company, 2 company and subsidiaries'),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  menu_ids: z.array(z.number().int()),
  user_count: z.number().int(),
  gmt_create: z.number().int(),
});
export type RoleRow = z.infer<typeof roleRowSchema>;

const roleFields = {
  name: requiredText(64),
  cn_name: text(64),
  state: oneOf([RoleState.OPEN, RoleState.DISABLE]),
  type: oneOf([RoleType.SYSTEM, RoleType.CUSTOM]),
  data_scope: oneOf([DataScope.OWN_COMPANY, DataScope.COMPANY_TREE]),
  comp_id: companyRef(),
  menu_ids: ids(),
};

export const roleAddInput = z.object({
  ...roleFields,
  cn_name: roleFields.cn_name.default(''),
  state: roleFields.state.default(RoleState.OPEN),
  type: roleFields.type.default(RoleType.CUSTOM),
  data_scope: roleFields.data_scope.default(DataScope.COMPANY_TREE),
  comp_id: roleFields.comp_id.optional(),
  menu_ids: roleFields.menu_ids.default([]),
});
export type RoleAddInput = z.infer<typeof roleAddInput>;

export const roleSetInput = z.object({
  id: id(),
  name: roleFields.name.optional(),
  cn_name: roleFields.cn_name.optional(),
  state: roleFields.state.optional(),
  type: roleFields.type.optional(),
  data_scope: roleFields.data_scope.optional(),
  menu_ids: roleFields.menu_ids.optional(),
});
export type RoleSetInput = z.infer<typeof roleSetInput>;

export const roleListInput = pagingSchema.extend({
  name: text(64).optional(),
  state: int().optional(),
  type: int().optional(),
  comp_id: id().optional(),
});
export type RoleListInput = z.infer<typeof roleListInput>;

export const roleGetInput = z.object({ id: id() });
/** Users holding a role (shown before a role is changed or deleted). */
export const roleRelaListInput = pagingSchema.extend({ role_id: id() });
