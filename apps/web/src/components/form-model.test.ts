import { PROVIDERS_OF_CHANNEL, PUSH_API, USER_API } from '@iot/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { FieldConfig } from './field-config';
import { formModel, narrowChoices, type ResolvedField } from './form-model';

const USER_FIELDS: FieldConfig[] = [
  { name: 'user_id' },
  { name: 'user_password', widget: 'password', encoded: true },
  { name: 'confirm_password', widget: 'password', sameAs: 'user_password' },
  { name: 'user_email' },
  { name: 'user_phone_area' },
  { name: 'user_phone' },
  { name: 'comp_id', widget: 'tree-select' },
  { name: 'role_id', widget: 'select', options: [] },
  { name: 'user_type', enumLabels: 'user.types', disabledValues: [1] },
  { name: 'state', widget: 'switch' },
  { name: 'validity_time', widget: 'date' },
];

const field = (fields: ResolvedField[], name: string) => {
  const f = fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

const addUser = formModel({ fields: USER_FIELDS, area: 'user', mode: 'add', schema: USER_API.accountAdd.input });

describe('a form built from the contract schema', () => {
  it('requires what the add command requires; a confirmation follows what it confirms', () => {
    expect(field(addUser.fields, 'user_id').required).toBe(true);
    expect(field(addUser.fields, 'user_password').required).toBe(true);
    expect(field(addUser.fields, 'confirm_password')).toMatchObject({ required: true, sent: false });
    expect(field(addUser.fields, 'user_email').required).toBe(false);
  });

  it('derives widgets, choices and switch values', () => {
    expect(field(addUser.fields, 'user_type')).toMatchObject({ widget: 'select' });
    expect(field(addUser.fields, 'user_type').choices[0]).toEqual({ value: 1, label: 'user.types.1', disabled: true });
    expect(field(addUser.fields, 'state').switchValues).toEqual([1, 2]);
    expect(field(addUser.fields, 'user_email').widget).toBe('text');
  });

  it('starts from the schema defaults plus the page values', () => {
    expect(addUser.initialValues({ comp_id: 7 })).toEqual({
      user_email: '',
      user_phone_area: '+86',
      user_phone: '',
      user_type: 9,
      state: 1,
      comp_id: 7,
    });
  });

  it('sends blanks as the schema says empty is (default or null), trims text, leaves out the rest', () => {
    const payload = addUser.payloadOf({
      user_id: ' ann ',
      user_password: 'secret',
      confirm_password: 'secret',
      user_email: '  ',
      role_id: undefined,
      validity_time: dayjs.unix(1_700_000_000),
      comp_id: 3,
    });
    expect(payload).toEqual({
      user_id: 'ann',
      user_password: 'secret',
      user_email: '',
      role_id: null,
      validity_time: 1_700_000_000,
      comp_id: 3,
    });
    expect(addUser.payloadOf({ validity_time: null }).validity_time).toBe(0);
  });

  it('checks a value as the user types: required, the schema, the confirmation, the +86 refinement', () => {
    const values = { user_id: 'a', user_password: 'x', confirm_password: 'y', user_phone_area: '+86', user_phone: '12345' };
    expect(addUser.check(field(addUser.fields, 'user_id'), values)).toBe('format:user_id');
    expect(addUser.check(field(addUser.fields, 'comp_id'), values)).toBe('required');
    // The password is checked encoded, on submit; while typing only `required`.
    expect(addUser.check(field(addUser.fields, 'user_password'), values)).toBeNull();
    expect(addUser.check(field(addUser.fields, 'confirm_password'), values)).toBe('same_as');
    expect(addUser.check(field(addUser.fields, 'user_phone'), values)).toBe('format:phone');
    expect(addUser.check(field(addUser.fields, 'user_phone'), { ...values, user_phone: '13800138000' })).toBeNull();
  });

  it('edit: a field the add form requires cannot be emptied if the row has it; one the row lacks (a password) may stay empty', () => {
    const row = { id: 5, user_id: 'ann', comp_id: 3, state: 1 };
    const edit = formModel({
      fields: USER_FIELDS,
      area: 'user',
      mode: 'edit',
      schema: USER_API.accountSet.input,
      addSchema: USER_API.accountAdd.input,
      row,
    });
    expect(field(edit.fields, 'comp_id').required).toBe(true);
    expect(field(edit.fields, 'user_password').required).toBe(false);
    expect(field(edit.fields, 'confirm_password').required).toBe(false);
    expect(edit.payloadOf({ user_password: '', comp_id: 3 })).toEqual({ comp_id: 3 });
    expect(edit.initialValues()).toMatchObject({ user_id: 'ann', comp_id: 3, state: 1 });
  });

  it('edit: fields the set command does not take are not sent (a role keeps its company)', () => {
    const fields: FieldConfig[] = [
      { name: 'name' },
      { name: 'comp_id', widget: 'tree-select', disabledOnEdit: true },
      { name: 'menu_ids', widget: 'custom' },
    ];
    const row = { id: 1, name: 'r', comp_id: 4, menu_ids: [1] };
    const edit = formModel({ fields, area: 'role', mode: 'edit', schema: USER_API.roleSet.input, addSchema: USER_API.roleAdd.input, row });
    expect(edit.payloadOf({ name: 'r2', comp_id: 4, menu_ids: [] })).toEqual({ name: 'r2', menu_ids: [] });
  });

  it('edit: an unchanged value the schema would refuse is not objected to (a pending company)', () => {
    const fields: FieldConfig[] = [{ name: 'state', enumLabels: 'company.states' }];
    const row = { comp_id: 1, state: 3 };
    const edit = formModel({
      fields,
      area: 'company',
      mode: 'edit',
      schema: USER_API.companySet.input,
      addSchema: USER_API.companyAdd.input,
      row,
    });
    expect(edit.check(field(edit.fields, 'state'), { state: 3 })).toBeNull();
  });

  it('a union branch picked by fixed values, which are sent too', () => {
    const add = formModel({
      fields: [{ name: 'sys' }, { name: 'port' }],
      area: 'resource',
      mode: 'add',
      schema: USER_API.resourceAdd.input,
      fixed: { res_type: 'datacenter' },
    });
    expect(field(add.fields, 'port')).toMatchObject({ widget: 'number', required: false });
    expect(add.payloadOf({ sys: 's', port: null })).toEqual({ sys: 's', port: 80, res_type: 'datacenter' });
    expect(add.accept({ sys: 's', res_type: 'datacenter' }).errors).toEqual({ name: 'required' });
  });

  it('a filter bar: no rules, values offered from the add schema, blanks left out', () => {
    const filters = formModel({
      fields: [{ name: 'user_type', enumLabels: 'user.types' }, { name: 'user_id' }],
      area: 'user',
      mode: 'filter',
      schema: USER_API.accountList.input,
      addSchema: USER_API.accountAdd.input,
    });
    expect(field(filters.fields, 'user_type').choices).toHaveLength(9);
    expect(filters.payloadOf({ user_type: undefined, user_id: ' a ' })).toEqual({ user_id: 'a' });
    expect(filters.check(field(filters.fields, 'user_id'), {})).toBeNull();
  });
});

describe('choices narrowed by another field (choicesWhen)', () => {
  const platformForm = formModel({
    fields: [{ name: 'type' }, { name: 'platform', choicesWhen: { field: 'type', values: PROVIDERS_OF_CHANNEL } }],
    area: 'push_platform',
    mode: 'add',
    schema: PUSH_API.pushPlatformAdd.input,
  });
  const enabled = (values: Record<string, unknown>) =>
    narrowChoices(field(platformForm.fields, 'platform'), values)
      .choices.filter((c) => !c.disabled)
      .map((c) => c.value);

  it("offers only the channel's providers, and every provider before a channel is chosen", () => {
    expect(enabled({ type: 1 })).toEqual(['aliyun_sms', 'tencent_sms']);
    expect(enabled({ type: 2 })).toEqual(['smtp']);
    expect(enabled({})).toHaveLength(field(platformForm.fields, 'platform').choices.length);
  });
});
