import type { TFunction } from 'i18next';

/** Client-side rule names a field can declare (messages are `rules.<name>`). */
export type RuleName =
  | 'integer'
  | 'number'
  | 'gt0'
  | 'gte0'
  | 'phone'
  | 'email'
  | 'max4'
  | 'version_number'
  | 'time_range'
  | 'free_storage_days'
  | 'recharge_range'
  | 'user_id'
  | 'phone_area'
  | 'latitude'
  | 'longitude'
  | 'json';

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Pure checks; true = passes. Empty values pass (use `required` for those). */
export const RULE_CHECKS: Record<RuleName, (v: unknown) => boolean> = {
  integer: (v) => Number.isInteger(Number(v)) && String(v).trim() !== '',
  number: (v) => Number.isFinite(Number(v)) && String(v).trim() !== '',
  gt0: (v) => Number(v) > 0,
  gte0: (v) => Number(v) >= 0,
  phone: (v) => /^\d{5,15}$/.test(String(v)),
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(v)),
  max4: (v) => String(v).length <= 4,
  version_number: (v) => /^\d+(\.\d+)*$/.test(String(v)),
  time_range: (v) => /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/.test(String(v)),
  free_storage_days: (v) => Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 30,
  recharge_range: (v) => Number(v) >= 0.01 && Number(v) <= 5000,
  user_id: (v) => /^[A-Za-z0-9_.@-]{2,64}$/.test(String(v)),
  phone_area: (v) => /^\+\d{1,4}$/.test(String(v)),
  latitude: (v) => Number(v) >= -90 && Number(v) <= 90,
  longitude: (v) => Number(v) >= -180 && Number(v) <= 180,
  json: (v) => {
    try {
      JSON.parse(String(v));
      return true;
    } catch {
      return false;
    }
  },
};

export const checkRule = (rule: RuleName, value: unknown): boolean => isEmpty(value) || RULE_CHECKS[rule](value);

/** A mainland-China mobile number has 11 digits (SPEC §5). */
export const checkPhoneForArea = (phone: unknown, area: unknown): boolean =>
  isEmpty(phone) || (area === '+86' ? /^1\d{10}$/.test(String(phone)) : RULE_CHECKS.phone(phone));

/**
 * Translate a rule of a 406 answer's `data.fields` (CONTRACT §3): `required`,
 * `format:email`, `too_small:2`, `too_big:64`, `type:number`, `one_of:1,2`…
 */
export const serverRuleMessage = (rule: string, t: TFunction): string => {
  const [kind = '', arg = ''] = rule.split(':', 2);
  switch (kind) {
    case 'required':
      return t('rules.required');
    case 'exists':
      return t('rules.exists');
    case 'too_small':
      return t('rules.too_small', { n: arg });
    case 'too_big':
      return t('rules.too_big', { n: arg });
    case 'one_of':
      return t('rules.one_of');
    case 'type':
      return t(arg === 'integer' ? 'rules.integer' : 'rules.number');
    case 'format': {
      const known: Record<string, string> = {
        email: 'rules.email',
        phone: 'rules.phone',
        user_id: 'rules.user_id',
        phone_area: 'rules.phone_area',
        json: 'rules.json',
        attr_value: 'rules.attr_required',
      };
      return t(known[arg] ?? 'rules.invalid');
    }
    case 'not_found':
    case 'has_children':
    case 'has_users':
    case 'in_use':
    case 'cycle':
    case 'depth':
    case 'self':
      return t(`rules.${kind}`);
    default:
      return t('rules.invalid');
  }
};
