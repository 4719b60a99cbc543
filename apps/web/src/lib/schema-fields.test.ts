import {
  accountAddInput,
  companyAddInput,
  companyRegisterInput,
  deviceAddInput,
  eventCfg,
  licenceAddInput,
  menuAddInput,
  noticeTemplate,
  productAddInput,
  resourceAddInput,
  roleAddInput,
} from '@iot/contract';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ruleMessage } from './rule-messages';
import { checkPayload, describeFields, fieldError, objectOf } from './schema-fields';

const specOf = (schema: Parameters<typeof describeFields>[0], name: string, values?: Record<string, unknown>) => {
  const spec = describeFields(schema, values).get(name);
  if (!spec) throw new Error(`no field ${name}`);
  const { schema: _schema, ...rest } = spec;
  return rest;
};

const objectOrThrow = (schema: Parameters<typeof objectOf>[0], values?: Record<string, unknown>) => {
  const object = objectOf(schema, values);
  if (!object) throw new Error('no object');
  return object;
};

describe('field specs read from the contract schemas', () => {
  it('required: neither optional nor defaulted', () => {
    expect(specOf(accountAddInput, 'user_id').required).toBe(true);
    expect(specOf(accountAddInput, 'comp_id').required).toBe(true);
    expect(specOf(accountAddInput, 'user_name').required).toBe(false);
    expect(specOf(accountAddInput, 'role_id')).toMatchObject({ required: false, nullable: true, hasDefault: false });
  });

  it('text lengths, number bounds and integers', () => {
    expect(specOf(companyAddInput, 'comp_name')).toMatchObject({ kind: 'string', minLength: 1, maxLength: 128 });
    expect(specOf(companyAddInput, 'latitude')).toMatchObject({ kind: 'number', integer: false, min: -90, max: 90, nullable: true });
    expect(specOf(companyAddInput, 'dk_limit')).toMatchObject({ kind: 'number', integer: true, min: 0, max: 1e9, defaultValue: 0 });
    // id(): a positive integer.
    expect(specOf(companyAddInput, 'comp_parent_id')).toMatchObject({ integer: true, min: 1 });
    // int().pipe(min 1, max 10 000): both sides of the pipe.
    expect(specOf(licenceAddInput, 'count')).toMatchObject({ min: 1, max: 10_000, required: true });
  });

  it('allowed values of oneOf, enums and literals, and defaults', () => {
    expect(specOf(accountAddInput, 'state')).toMatchObject({ options: [1, 2], defaultValue: 1 });
    expect(specOf(accountAddInput, 'user_type')).toMatchObject({ options: [1, 2, 3, 4, 5, 6, 7, 8, 9], defaultValue: 9 });
    expect(specOf(roleAddInput, 'menu_ids')).toMatchObject({ kind: 'array', defaultValue: [] });
    expect(specOf(menuAddInput, 'is_show')).toMatchObject({ options: [0, 1], defaultValue: 1 });
    // An email or '': free text, not a list of values.
    expect(specOf(accountAddInput, 'user_email').options).toBeUndefined();
  });

  it('the schemas of a CRUD-kit resource: company references, lists of values, defaults on add only', () => {
    expect(specOf(eventCfg.add, 'comp_id')).toMatchObject({ companyRef: true, required: false });
    expect(specOf(eventCfg.list, 'comp_id').companyRef).toBe(true);
    expect(specOf(accountAddInput, 'comp_id').companyRef).toBe(true);
    expect(specOf(eventCfg.add, 'name').companyRef).toBeUndefined();
    expect(specOf(eventCfg.add, 'channels')).toMatchObject({ kind: 'array', options: [1, 2, 3, 4], defaultValue: [3] });
    expect(specOf(eventCfg.add, 'state')).toMatchObject({ options: [1, 2], defaultValue: 1 });
    // set: absent means keep, so no default is filled in.
    expect(specOf(eventCfg.set, 'state')).toMatchObject({ required: false, hasDefault: false });
    expect(specOf(noticeTemplate.add, 'lang')).toMatchObject({
      defaultValue: 'en',
      options: expect.arrayContaining(['en', 'zh-CN', 'zh-TW']),
    });
  });

  it('a discriminated union gives the branch the values pick', () => {
    expect(specOf(resourceAddInput, 'port', { res_type: 'datacenter' })).toMatchObject({ min: 0, max: 65_535, defaultValue: 80 });
    expect(describeFields(resourceAddInput, { res_type: 'sys' }).has('port')).toBe(false);
    expect(objectOf(resourceAddInput, {})).toBeNull();
  });

  it('reads through preprocessing of the whole object', () => {
    expect(specOf(productAddInput, 'attr')).toMatchObject({ kind: 'string', maxLength: 16_384, defaultValue: '{}' });
  });
});

describe('checking one field as the server would', () => {
  const company = objectOrThrow(companyAddInput);

  it('names the same rules as a 406 answer', () => {
    expect(fieldError(company, 'comp_name', {})).toBe('required');
    expect(fieldError(company, 'comp_name', { comp_name: '  ' })).toBe('required');
    expect(fieldError(company, 'comp_name', { comp_name: 'x'.repeat(129) })).toBe('too_big:128');
    expect(fieldError(company, 'latitude', { latitude: 91 })).toBe('too_big:90');
    expect(fieldError(company, 'comp_phone_area', { comp_phone_area: '86' })).toBe('format:phone_area');
    expect(fieldError(objectOrThrow(productAddInput), 'attr', { attr: '{"a": ' })).toBe('format:json');
    expect(fieldError(objectOrThrow(productAddInput), 'attr', { attr: '{"a": ""}' })).toBe('format:attr_value');
    expect(fieldError(objectOrThrow(deviceAddInput), 'uid', { uid: 'ab' })).toBe('format:uid');
    expect(fieldError(objectOrThrow(menuAddInput), 'menu_key', { menu_key: 'A b' })).toBe('format:menu_key');
    expect(fieldError(objectOrThrow(accountAddInput), 'state', { state: 3 })).toBe('one_of:1,2');
  });

  it('runs the refinements over several fields while other fields are still empty (+86 wants 11 digits)', () => {
    expect(fieldError(company, 'comp_phone', { comp_phone: '12345', comp_phone_area: '+86' })).toBe('format:phone');
    expect(fieldError(company, 'comp_phone', { comp_phone: '13800138000', comp_phone_area: '+86' })).toBeNull();
    expect(fieldError(company, 'comp_phone', { comp_phone: '12345', comp_phone_area: '+1' })).toBeNull();
    // The area's default applies when it is left out.
    expect(fieldError(company, 'comp_phone', { comp_phone: '12345' })).toBe('format:phone');
    // The registration: later steps (account, email) are still empty.
    const register = objectOrThrow(companyRegisterInput);
    expect(fieldError(register, 'comp_phone', { comp_phone: '1380013800', comp_phone_area: '+86' })).toBe('format:phone');
    // Without its own check (an unchanged value), only the refinements speak.
    expect(fieldError(company, 'comp_name', { comp_name: '' }, false)).toBeNull();
  });

  it('checks a whole payload: its input, or field → rule', () => {
    expect(checkPayload(companyAddInput, { comp_parent_id: 1, comp_name: 'A' }).input).toEqual({ comp_parent_id: 1, comp_name: 'A' });
    expect(checkPayload(companyAddInput, { comp_parent_id: 1, comp_name: 'A', comp_phone: '123456' }).errors).toEqual({
      comp_phone: 'format:phone',
    });
    expect(checkPayload(companyAddInput, {}).errors).toMatchObject({ comp_parent_id: 'required', comp_name: 'required' });
  });
});

describe('rule messages', () => {
  const t = ((key: string, opts?: Record<string, unknown>) =>
    opts && 'defaultValue' in opts
      ? key === 'device.rules.uid'
        ? 'device uid message'
        : opts.defaultValue
      : opts
        ? `${key}:${JSON.stringify(opts)}`
        : key) as unknown as TFunction;

  it('translates the rules of a 406 answer and of the form', () => {
    expect(ruleMessage('required', t)).toBe('rules.required');
    expect(ruleMessage('format:email', t)).toBe('rules.email');
    expect(ruleMessage('format:phone', t)).toBe('rules.phone');
    expect(ruleMessage('too_small:2', t)).toBe('rules.too_small:{"n":"2"}');
    expect(ruleMessage('too_big:64', t)).toBe('rules.too_big:{"n":"64"}');
    expect(ruleMessage('type:number', t)).toBe('rules.number');
    expect(ruleMessage('type:int', t)).toBe('rules.integer');
    expect(ruleMessage('one_of:1,2', t)).toBe('rules.one_of');
    expect(ruleMessage('in_use', t)).toBe('rules.in_use');
    expect(ruleMessage('same_as', t)).toBe('rules.password_mismatch');
    expect(ruleMessage('whatever', t)).toBe('rules.invalid');
  });

  it("says a number's range, and a screen's own wording first", () => {
    expect(ruleMessage('too_big:90', t, { min: -90, max: 90 })).toBe('rules.range:{"min":-90,"max":90}');
    expect(ruleMessage('format:uid', t, { area: 'device' })).toBe('device uid message');
    expect(ruleMessage('format:mac', t, { area: 'device' })).toBe('rules.invalid');
  });

  it('names the refusals of a delete, and a field the command does not take', () => {
    expect(ruleMessage('has_devices', t)).toBe('rules.has_devices');
    expect(ruleMessage('has_licences', t)).toBe('rules.has_licences');
    expect(ruleMessage('unknown', t)).toBe('rules.unknown');
    expect(ruleMessage('unknown', t, { field: 'foo' })).toBe('rules.unknown_field:{"field":"foo"}');
    expect(ruleMessage('unknown', t, { field: '_' })).toBe('rules.unknown');
    expect(ruleMessage('not_in:zonebind', t)).toBe('rules.not_in:{"type":"zonebind"}');
    expect(ruleMessage('not_in:sys', t, { field: 'port' })).toBe('rules.not_in_field:{"field":"port","type":"sys"}');
  });
});
