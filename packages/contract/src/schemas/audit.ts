import { z } from 'zod';
import { id, pagingSchema, text, unixTime } from './common.js';

export const AUDIT_ACTIONS = ['add', 'set', 'del'] as const;

export const auditRowSchema = z.object({
  id: z.number().int(),
  user_id: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  path: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target_id: z.string(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  ip: z.string(),
  request_id: z.string(),
  gmt_create: z.number().int(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditListInput = pagingSchema.extend({
  user_id: text(64).optional(),
  comp_id: id().optional(),
  path: text(128).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  target_id: text(64).optional(),
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
});
export type AuditListInput = z.infer<typeof auditListInput>;
