import { z } from 'zod';
import { id, int, oneOf, requiredText, safeString, text } from './common.js';

export interface MenuNode {
  menu_id: number;
  menu_key: string;
  menu_name: string;
  menu_cn_name: string;
  menu_tw_name: string;
  menu_parent_id: number;
  icon: string;
  sort: number;
  is_show: number;
  sub_menus: MenuNode[];
}

export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    menu_id: z.number().int(),
    menu_key: z.string(),
    menu_name: z.string(),
    menu_cn_name: z.string(),
    menu_tw_name: z.string(),
    menu_parent_id: z.number().int().describe('0 for a top-level group'),
    icon: z.string(),
    sort: z.number().int(),
    is_show: z.number().int().describe('1 shown in the sidebar, 0 hidden (still reachable when granted)'),
    sub_menus: z.array(menuNodeSchema),
  }),
);

const menuKey = () =>
  safeString()
    .trim()
    .regex(/^[a-z0-9_]+(\/[a-z0-9_]+)*$/, 'format:menu_key')
    .max(64);

export const menuAddInput = z.object({
  menu_key: menuKey(),
  menu_name: requiredText(64),
  menu_cn_name: text(64).default(''),
  menu_tw_name: text(64).default(''),
  menu_parent_id: int().default(0),
  icon: text(64).default(''),
  sort: int().default(0),
  is_show: oneOf([0, 1]).default(1),
});
export type MenuAddInput = z.infer<typeof menuAddInput>;

export const menuSetInput = z.object({
  menu_id: id(),
  menu_name: requiredText(64).optional(),
  menu_cn_name: text(64).optional(),
  menu_tw_name: text(64).optional(),
  menu_parent_id: int().optional(),
  icon: text(64).optional(),
  sort: int().optional(),
  is_show: oneOf([0, 1]).optional(),
});
export type MenuSetInput = z.infer<typeof menuSetInput>;

export const menuListInput = z.object({ menu_name: text(64).optional() });
export const menuDelInput = z
  .object({ menu_id: id().optional(), id: id().optional() })
  .refine((v) => v.menu_id !== undefined || v.id !== undefined, { message: 'required', path: ['menu_id'] });
