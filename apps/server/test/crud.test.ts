import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, ok } from './helpers.js';

/** The CRUD kit (platform/crud.ts) through resources declared on it: notice templates and push platforms. */
let t: TestServer;
let other: { compId: number; token: string };
beforeAll(async () => {
  t = await startTestServer();
  other = await createCompanyAdmin(t, {
    name: 'Other Co',
    menuKeys: ['applist/notice_template', 'applist/flatform'],
    userId: 'other_admin',
  });
});
afterAll(async () => {
  await t?.close();
});

/** The `data` of a refused call (its `{field: rule}`). */
const refused = async (answer: Promise<Answer>, code = 406) => {
  const a = await answer;
  fails(a, code);
  return (a.data as { fields?: Record<string, string> } | null)?.fields;
};

type Tpl = {
  id: number;
  gmt_create: number;
  comp_id: number;
  comp_name: string;
  lang: string;
  name: string;
  title: string;
  body: string;
  type: number;
};
const tpl = <T = Tpl>(op: string, body: Record<string, unknown>, token = t.adminToken) =>
  t.call<T>(`v2/user/notice/user/template/${op}`, body, { token });
const base = { name: 'Renewed', title: 'Your plan renewed', body: 'Hello {{user_name}}', type: 5 };

describe('CRUD kit: notice templates', () => {
  it('adds with defaults and the caller company, lists, changes only what is sent, deletes', async () => {
    const row = ok(await tpl('add', base));
    expect(row).toMatchObject({ ...base, lang: 'en', comp_id: 1 });
    expect(row.comp_name).not.toBe('');
    expect(row.gmt_create).toBeGreaterThan(0);
    const changed = ok(await tpl('set', { id: row.id, title: 'Renewal done' }));
    expect(changed).toMatchObject({ ...base, title: 'Renewal done', lang: 'en' });
    const listed = await tpl<Tpl[]>('list', { type: 5 });
    expect(listed.count).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: row.id, title: 'Renewal done' });
    expect(ok(await tpl('del', { id: row.id }))).toEqual({ deleted: 1 });
    expect((await tpl<Tpl[]>('list', {})).count).toBe(0);
  });

  it('refuses bad input with the field and stores nothing', async () => {
    const before = await dbOf(t)
      .selectFrom('notice_template')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await refused(tpl('add', { ...base, type: 11 }))).toEqual({ type: 'one_of:1,2,3,4,5,6,7,8,9,10' });
    expect(await refused(tpl('add', { ...base, lang: 'english!' }))).toEqual({ lang: 'format:lang' });
    expect(await refused(tpl('add', { ...base, title: '' }))).toMatchObject({ title: expect.any(String) });
    const row = ok(await tpl('add', base));
    fails(await tpl('set', { id: row.id, type: 0 }), 406);
    expect(ok(await tpl('set', { id: row.id })).type).toBe(5);
    const after = await dbOf(t)
      .selectFrom('notice_template')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    ok(await tpl('del', { id: row.id }));
  });

  it('keeps companies apart: a company admin neither sees nor touches another company row', async () => {
    const mine = ok(await tpl('add', { ...base, name: 'platform' }));
    const theirs = ok(await tpl('add', { ...base, name: 'theirs' }, other.token));
    expect(theirs.comp_id).toBe(other.compId);
    const seen = await tpl<Tpl[]>('list', {}, other.token);
    expect(seen.data.map((r) => r.id)).toEqual([theirs.id]);
    fails(await tpl('set', { id: mine.id, name: 'x' }, other.token), 406);
    fails(await tpl('del', { ids: [theirs.id, mine.id] }, other.token), 406);
    expect(ok(await tpl('set', { id: mine.id }, t.adminToken)).name).toBe('platform');
    // Adding into a company out of scope answers the declared company reference's 406.
    expect(await refused(tpl('add', { ...base, comp_id: 1 }, other.token))).toEqual({ comp_id: 'not_found' });
    // The super administrator sees both; the filter by company narrows.
    expect((await tpl<Tpl[]>('list', { comp_id: other.compId })).data.map((r) => r.id)).toEqual([theirs.id]);
    ok(await tpl('del', { ids: [mine.id, theirs.id] }));
  });

  it('sorts by declared fields only and pages', async () => {
    const ids = [];
    for (const name of ['b', 'c', 'a']) ids.push(ok(await tpl('add', { ...base, name })).id);
    const byName = await tpl<Tpl[]>('list', { order_by: 'name', order: 'asc', page_size: 2 });
    expect(byName.data.map((r) => r.name)).toEqual(['a', 'b']);
    expect(byName.count).toBe(3);
    fails(await tpl('list', { order_by: 'body' }), 406);
    ok(await tpl('del', { ids }));
  });
});

type Platform = Record<string, unknown> & { id: number };
const platform = <T = Platform>(op: string, body: Record<string, unknown>, token = t.adminToken) =>
  t.call<T>(`v2/push/platform/${op}`, body, { token });

describe('CRUD kit: secrets', () => {
  it('seals secret fields, answers the mask, keeps them when absent or masked, replaces them when sent', async () => {
    const row = ok(
      await platform('add', {
        name: 'Mail',
        type: 2,
        platform: 'smtp',
        smtp_addr: 'mail.example.com',
        smtp_port: 465,
        password: 'hunter2',
      }),
    );
    expect(row.password).toBe('******');
    expect(row.key_secret).toBe('');
    const stored = await dbOf(t).selectFrom('push_platform').select('password').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored.password).not.toContain('hunter2');
    ok(await platform('set', { id: row.id, name: 'Mail 2', password: '******' }));
    ok(await platform('set', { id: row.id, smtp_port: 587 }));
    const kept = await dbOf(t).selectFrom('push_platform').select('password').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(kept.password).toBe(stored.password);
    ok(await platform('set', { id: row.id, password: 'correct horse' }));
    const replaced = await dbOf(t).selectFrom('push_platform').select('password').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(replaced.password).not.toBe(stored.password);
    const listed = await platform<Platform[]>('list', {});
    expect(JSON.stringify(listed)).not.toMatch(/hunter2|correct horse/);
    const audit = await dbOf(t).selectFrom('audit_log').select('changes').execute();
    expect(JSON.stringify(audit)).not.toMatch(/hunter2|correct horse/);
    ok(await platform('del', { id: row.id }));
  });
});
