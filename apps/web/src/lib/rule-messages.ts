import type { TFunction } from 'i18next';

/** What a message may say besides the rule: the screen's label area, the field, a number field's bounds. */
export interface RuleContext {
  /** `<area>.rules.<name>` overrides the general message (`device.rules.uid` for `format:uid`). */
  area?: string | undefined;
  /** The field's label or name, for messages shown away from the field (a toast); `_` is the whole payload. */
  field?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

/** General messages of `format:<name>` rules (`rules.<key>`). */
const FORMATS: Record<string, string> = {
  email: 'rules.email',
  phone: 'rules.phone',
  user_id: 'rules.user_id',
  phone_area: 'rules.phone_area',
  json: 'rules.json',
  json_depth: 'rules.json_depth',
  attr_value: 'rules.attr_required',
  control_char: 'rules.control_char',
  menu_key: 'rules.menu_key',
};

/** Refusals a command names (CONTRACT §3): `rules.<rule>`. */
const REFUSALS = new Set([
  'exists',
  'not_found',
  'has_children',
  'has_users',
  'has_devices',
  'has_licences',
  'in_use',
  'cycle',
  'depth',
  'self',
]);

/**
 * The message of a rule, as the server names it in a 406 answer's `data.fields` (CONTRACT §3)
 * and the console's own check of a form against the contract schema: `required`,
 * `format:email`, `too_small:2`, `too_big:64`, `type:number`, `one_of:1,2`, `in_use`…, `unknown`
 * (a field the command does not take), `not_in:<type>` (a field of another resource type); and
 * the form's own `same_as` (a confirmation that differs).
 */
export const ruleMessage = (rule: string, t: TFunction, ctx: RuleContext = {}): string => {
  const [kind = '', arg = ''] = rule.split(':', 2);
  if (ctx.area) {
    const own = t(`${ctx.area}.rules.${kind === 'format' ? arg : kind}`, { defaultValue: '' });
    if (own) return own;
  }
  const hasRange = ctx.min !== undefined && ctx.max !== undefined;
  const field = ctx.field && ctx.field !== '_' ? ctx.field : undefined;
  switch (kind) {
    case 'required':
      return t('rules.required');
    case 'same_as':
      return t('rules.password_mismatch');
    case 'too_small':
      return hasRange ? t('rules.range', { min: ctx.min, max: ctx.max }) : t('rules.too_small', { n: arg });
    case 'too_big':
      return hasRange ? t('rules.range', { min: ctx.min, max: ctx.max }) : t('rules.too_big', { n: arg });
    case 'one_of':
      return t('rules.one_of');
    case 'type':
      return t(arg === 'int' || arg === 'integer' ? 'rules.integer' : 'rules.number');
    case 'format':
      return t(FORMATS[arg] ?? 'rules.invalid');
    case 'unknown':
      return field ? t('rules.unknown_field', { field }) : t('rules.unknown');
    case 'not_in': {
      // The resource types' names are the tabs of system/resource.
      const type = t(`resource.tabs.${arg}`, { defaultValue: arg });
      return field ? t('rules.not_in_field', { field, type }) : t('rules.not_in', { type });
    }
    default:
      return REFUSALS.has(kind) ? t(`rules.${kind}`) : t('rules.invalid');
  }
};
