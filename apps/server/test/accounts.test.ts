import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePassword, startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, addUserAnswer, dbOf, fails, ok, type UserRowLite } from './helpers.js';

let t: TestServer;
let compId: number;
let otherCompId: number;
let roleId: number;
beforeAll(async () => {
  t = await startTestServer();
  compId = (await addCompany(t, { comp_name: 'Accounts Co' })).comp_id;
  otherCompId = (await addCompany(t, { comp_name: 'Other Accounts Co' })).comp_id;
  roleId = (await addRole(t, { name: 'Clerk', comp_id: compId, menuKeys: ['operate/user'] })).id;
});
afterAll(async () => {
  await t?.close();
});

const list = (body: Record<string, unknown>) => t.call<UserRowLite[]>('v2/user/account/list', body, { token: t.adminToken });
const set = (body: Record<string, unknown>) => t.call<UserRowLite>('v2/user/account/set', body, { token: t.adminToken });

describe('account add', () => {
  it('answers the created row with its id and no password field', async () => {
    const row = await addUser(t, {
      user_id: 'new.user',
      comp_id: compId,
      role_id: roleId,
      user_name: 'New User',
      user_email: 'new@example.com',
      user_phone: '13800000001',
    });
    expect(row.id).toBeGreaterThan(0);
    expect(row).toMatchObject({
      user_id: 'new.user',
      user_name: 'New User',
      user_email: 'new@example.com',
      user_phone: '13800000001',
      comp_id: compId,
      role_id: roleId,
      role_name: 'Clerk',
      comp_name: 'Accounts Co',
      state: 1,
    });
    expect(Object.keys(row).filter((k) => /pass|hash/i.test(k))).toEqual([]);
    expect(JSON.stringify(row)).not.toMatch(/argon2/);
    // The list row carries no password either.
    const [listed] = ok(await list({ user_id: 'new.user' }));
    expect(Object.keys(listed!).filter((k) => /pass|hash/i.test(k))).toEqual([]);
    // And the account logs in with the password it was given.
    ok(await t.loginAnswer('new.user', 'Passw0rd!'));
  });

  it('stores only a slow salted hash of the encoded password', async () => {
    const stored = await dbOf(t).selectFrom('app_user').select('password_hash').where('user_id', '=', 'new.user').executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$(argon2id|scrypt)/);
    expect(stored.password_hash).not.toContain(encodePassword('new.user', 'Passw0rd!'));
  });

  it('defaults the phone area to +86', async () => {
    const row = await addUser(t, { user_id: 'area.default', comp_id: compId, user_phone: '13800000002' });
    expect(row.user_phone_area).toBe('+86');
    const other = await addUser(t, { user_id: 'area.other', comp_id: compId, user_phone: '5551234', user_phone_area: '+1' });
    expect(other.user_phone_area).toBe('+1');
  });

  it('answers 1101 for a duplicate user_id (without regard to case)', async () => {
    await addUser(t, { user_id: 'dup.id', comp_id: compId });
    fails(await addUserAnswer(t, { user_id: 'dup.id', comp_id: compId }), 1101);
    fails(await addUserAnswer(t, { user_id: 'DUP.ID', comp_id: otherCompId }), 1101);
  });

  it('answers 1101/1102/1103 to the loser of two simultaneous adds, and creates one account', async () => {
    for (const [field, value, code] of [
      ['user_id', 'race.id', 1101],
      ['user_email', 'race@example.com', 1102],
      ['user_phone', '13911112222', 1103],
    ] as const) {
      const answers = await Promise.all(
        [1, 2].map((n) => addUserAnswer(t, { user_id: `race.${field}.${n}`, comp_id: compId, [field]: value })),
      );
      expect(
        answers.map((a) => a.code).sort((x, y) => x - y),
        field,
      ).toEqual([200, code]);
    }
    expect(ok(await list({ user_id: 'race.' })).length).toBe(3);
  });

  it('answers 1102 for a duplicate email', async () => {
    await addUser(t, { user_id: 'dup.mail1', comp_id: compId, user_email: 'same@example.com' });
    fails(await addUserAnswer(t, { user_id: 'dup.mail2', comp_id: compId, user_email: 'same@example.com' }), 1102);
    fails(await addUserAnswer(t, { user_id: 'dup.mail3', comp_id: compId, user_email: 'SAME@example.com' }), 1102);
  });

  it('answers 1103 for a duplicate phone in the same area', async () => {
    await addUser(t, { user_id: 'dup.phone1', comp_id: compId, user_phone: '13900000009' });
    fails(await addUserAnswer(t, { user_id: 'dup.phone2', comp_id: compId, user_phone: '13900000009' }), 1103);
    fails(await addUserAnswer(t, { user_id: 'dup.phone3', comp_id: compId, user_phone: '13900000009', user_phone_area: '+86' }), 1103);
    // Another area is another number.
    ok(await addUserAnswer(t, { user_id: 'dup.phone4', comp_id: compId, user_phone: '13900000009', user_phone_area: '+852' }));
    // Nothing was created by the refused calls.
    expect(
      ok(await list({ user_id: 'dup.phone' }))
        .map((u) => u.user_id)
        .sort(),
    ).toEqual(['dup.phone1', 'dup.phone4']);
  });

  it('answers 406 for an unknown company or role', async () => {
    const noCompany = await addUserAnswer(t, { user_id: 'no.company', comp_id: 99999 });
    fails(noCompany, 406);
    const noRole = await addUserAnswer(t, { user_id: 'no.role', comp_id: compId, role_id: 99999 });
    fails(noRole, 406);
    expect((noRole.data as unknown as { fields: Record<string, string> }).fields).toHaveProperty('role_id');
  });
});

describe('account set', () => {
  it('keeps the password when user_password is absent, and changes only the given fields', async () => {
    const user = await addUser(t, { user_id: 'keep.pw', comp_id: compId, password: 'Keep-pw1', user_name: 'Before', remark: 'stays' });
    const token = await t.login('keep.pw', 'Keep-pw1');
    const row = ok(await set({ id: user.id, user_name: 'After' }));
    expect(row).toMatchObject({ user_name: 'After', remark: 'stays', user_phone_area: '+86' });
    ok(await t.loginAnswer('keep.pw', 'Keep-pw1'));
    // A profile change does not end the user's sessions.
    ok(await t.call('v2/user/account/get', {}, { token }));
  });

  it('changes the password when given, and revokes the user’s tokens', async () => {
    const user = await addUser(t, { user_id: 'reset.pw', comp_id: compId, password: 'Old-pw1' });
    const token = await t.login('reset.pw', 'Old-pw1');
    ok(await set({ id: user.id, user_password: encodePassword('reset.pw', 'New-pw1') }));
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
    fails(await t.loginAnswer('reset.pw', 'Old-pw1'), 514);
    ok(await t.loginAnswer('reset.pw', 'New-pw1'));
  });

  it('revokes the tokens of a user it disables, at once', async () => {
    const user = await addUser(t, { user_id: 'to.disable', comp_id: compId, password: 'Disable-1' });
    const token = await t.login('to.disable', 'Disable-1');
    ok(await t.call('v2/user/account/get', {}, { token }));
    expect(ok(await set({ id: user.id, state: 2 })).state).toBe(2);
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
    // Enabling it again does not bring the old session back.
    ok(await set({ id: user.id, state: 1 }));
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
    ok(await t.loginAnswer('to.disable', 'Disable-1'));
  });

  it('answers 1101/1102/1103 when a change collides with another user, and 406 for an unknown id', async () => {
    await addUser(t, { user_id: 'holder', comp_id: compId, user_email: 'holder@example.com', user_phone: '13700000001' });
    const user = await addUser(t, { user_id: 'mover', comp_id: compId });
    fails(await set({ id: user.id, user_email: 'holder@example.com' }), 1102);
    fails(await set({ id: user.id, user_phone: '13700000001' }), 1103);
    // Setting a user's own values again is no collision.
    const holder = ok(await list({ user_id: 'holder' }))[0]!;
    ok(await set({ id: holder.id, user_email: 'holder@example.com', user_phone: '13700000001' }));
    fails(await set({ id: 99999, user_name: 'x' }), 406);
  });

  it('refuses to disable the calling user', async () => {
    const me = ok(await t.call<{ user: { id: number } }>('v2/user/account/get', {}, { token: t.adminToken })).user;
    fails(await set({ id: me.id, state: 2 }), 406);
    ok(await t.call('v2/user/account/get', {}, { token: t.adminToken }));
  });
});

describe('account list', () => {
  let listCompId: number;
  let listRoleId: number;
  beforeAll(async () => {
    listCompId = (await addCompany(t, { comp_name: 'List Co' })).comp_id;
    listRoleId = (await addRole(t, { name: 'Lister', comp_id: listCompId, menuKeys: ['operate/user'] })).id;
    await addUser(t, { user_id: 'l.alpha', comp_id: listCompId, role_id: listRoleId, user_name: 'Alpha' });
    await addUser(t, { user_id: 'l.beta', comp_id: listCompId, user_name: 'Beta' });
    const gamma = await addUser(t, { user_id: 'l.gamma', comp_id: listCompId, role_id: listRoleId, user_name: 'Gamma' });
    ok(await set({ id: gamma.id, state: 2 }));
  });
  const ids = async (body: Record<string, unknown>) =>
    ok(await list({ page_size: 100, ...body }))
      .map((u) => u.user_id)
      .sort();

  it('filters by company', async () => {
    expect(await ids({ comp_id: listCompId })).toEqual(['l.alpha', 'l.beta', 'l.gamma']);
  });

  it('filters by user_id (part of it) and user_name', async () => {
    expect(await ids({ user_id: 'l.al' })).toEqual(['l.alpha']);
    expect(await ids({ comp_id: listCompId, user_name: 'bet' })).toEqual(['l.beta']);
  });

  it('filters by role', async () => {
    expect(await ids({ role_id: listRoleId })).toEqual(['l.alpha', 'l.gamma']);
  });

  it('filters by state, where 0 and -1 (user_state) mean any state', async () => {
    expect(await ids({ comp_id: listCompId, state: 1 })).toEqual(['l.alpha', 'l.beta']);
    expect(await ids({ comp_id: listCompId, state: 2 })).toEqual(['l.gamma']);
    expect(await ids({ comp_id: listCompId, user_state: 2 })).toEqual(['l.gamma']);
    expect(await ids({ comp_id: listCompId, user_state: 0 })).toEqual(['l.alpha', 'l.beta', 'l.gamma']);
    expect(await ids({ comp_id: listCompId, user_state: -1 })).toEqual(['l.alpha', 'l.beta', 'l.gamma']);
    expect(await ids({ comp_id: listCompId, state: 0 })).toEqual(['l.alpha', 'l.beta', 'l.gamma']);
  });

  it('answers count for the filters', async () => {
    const res = await list({ comp_id: listCompId, state: 1, page_size: 1 });
    expect(ok(res)).toHaveLength(1);
    expect(res.count).toBe(2);
  });
});

describe('account del', () => {
  it('deletes by id or ids; the account can no longer log in', async () => {
    const a = await addUser(t, { user_id: 'del.a', comp_id: compId, password: 'Del-pw1' });
    const b = await addUser(t, { user_id: 'del.b', comp_id: compId });
    const c = await addUser(t, { user_id: 'del.c', comp_id: compId });
    const token = await t.login('del.a', 'Del-pw1');
    ok(await t.call('v2/user/account/del', { id: a.id }, { token: t.adminToken }));
    ok(await t.call('v2/user/account/del', { ids: [b.id, c.id] }, { token: t.adminToken }));
    expect(ok(await list({ user_id: 'del.' }))).toEqual([]);
    fails(await t.loginAnswer('del.a', 'Del-pw1'), 514);
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
  });

  it('answers 406 for an unknown id or none, and for deleting oneself', async () => {
    fails(await t.call('v2/user/account/del', { id: 99999 }, { token: t.adminToken }), 406);
    fails(await t.call('v2/user/account/del', {}, { token: t.adminToken }), 406);
    fails(await t.call('v2/user/account/del', { ids: [] }, { token: t.adminToken }), 406);
    const me = ok(await t.call<{ user: { id: number } }>('v2/user/account/get', {}, { token: t.adminToken })).user;
    fails(await t.call('v2/user/account/del', { id: me.id }, { token: t.adminToken }), 406);
  });

  it('deletes nothing when one of several ids fails', async () => {
    const keep = await addUser(t, { user_id: 'del.keep', comp_id: compId });
    fails(await t.call('v2/user/account/del', { ids: [keep.id, 99999] }, { token: t.adminToken }), 406);
    expect(ok(await list({ user_id: 'del.keep' })).map((u) => u.id)).toEqual([keep.id]);
  });
});

describe('account get', () => {
  it('answers the calling user with its company and role', async () => {
    await addUser(t, { user_id: 'get.me', comp_id: compId, role_id: roleId, password: 'Get-me1' });
    const token = await t.login('get.me', 'Get-me1');
    const me = ok(
      await t.call<{
        user: UserRowLite;
        company: { comp_id: number; comp_name: string };
        role: { id: number; name: string };
        menus: { sub_menus: { menu_key: string }[] }[];
      }>('v2/user/account/get', {}, { token }),
    );
    expect(me.user.user_id).toBe('get.me');
    expect(me.company).toMatchObject({ comp_id: compId, comp_name: 'Accounts Co' });
    expect(me.role).toMatchObject({ id: roleId, name: 'Clerk' });
    expect(me.menus.flatMap((m) => m.sub_menus.map((s) => s.menu_key))).toEqual(['operate/user']);
    expect(JSON.stringify(me)).not.toMatch(/password|argon2/i);
  });
});
