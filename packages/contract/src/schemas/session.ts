import { z } from 'zod';
import { companyRowSchema } from './company.js';
import { menuNodeSchema } from './menu.js';
import { roleRowSchema } from './role.js';
import { userRowSchema } from './user.js';

/** `v2/user/login` answer (CONTRACT §4). */
export const loginOutput = z.object({
  acc_token: z.string(),
  expires_at: z.number().int(),
  user: userRowSchema,
  menus: z.array(menuNodeSchema),
});
export type LoginOutput = z.infer<typeof loginOutput>;

/** `v2/user/account/get` answer: the caller with company, role and the menus it sees. */
export const accountGetOutput = z.object({
  user: userRowSchema,
  company: companyRowSchema.nullable(),
  role: roleRowSchema.nullable(),
  menus: z.array(menuNodeSchema),
});
export type AccountGetOutput = z.infer<typeof accountGetOutput>;

/** A company row of `company/list {tree: 1}`: its subsidiaries nested. */
export type CompanyNode = z.infer<typeof companyRowSchema> & { children?: CompanyNode[] };
