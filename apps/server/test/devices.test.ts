import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDevices } from '../src/modules/iot/device.repository.js';
import { registerDevices } from '../src/modules/iot/device.service.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addProduct, addRole, addUser, dbOf, fails, nowSeconds, ok } from './helpers.js';

// Device registration (product/device): add, list with filters and scope, dk_limit,
// bulk actions, cursor paging, one device in depth, and registerDevices for imports.
let t: TestServer;
let parent: { comp_id: number };
let child: { comp_id: number };
let sibling: { comp_id: number };
let boss: string;
let siblingBoss: string;

interface Row {
  id: number;
  uid: string;
  mac: string;
  pk: string;
  product_name: string | null;
  comp_id: number;
  online: number;
  offline_reason: number;
}

const list = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await t.call<Row[]>('v2/iot/web/uid/reg/list', body, { token });
  ok(res);
  return { rows: res.data, count: res.count ?? -1 };
};
const add = (token: string, body: Record<string, unknown>) => t.call<Row>('v2/iot/web/uid/reg/add', body, { token });
const dkOf = async (compId: number) =>
  (await dbOf(t).selectFrom('company').select(['dk', 'dk_limit']).where('comp_id', '=', compId).executeTakeFirstOrThrow()).dk;
const devicesOf = async (compId: number) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from device where comp_id = ${compId}`.execute(dbOf(t))).rows[0]?.n ?? -1);
const expectDkExact = async (...compIds: number[]) => {
  for (const c of compIds) expect(await dkOf(c), `dk of company ${c}`).toBe(await devicesOf(c));
};

/**
 * The list's count for `online = 1` (summed from the online counters of migration 0012) against
 * counting the rows, for several callers, companies and products.
 */
const expectOnlineCountsExact = async () => {
  const pathOf = async (compId: number) =>
    (await dbOf(t).selectFrom('company').select('comp_path').where('comp_id', '=', compId).executeTakeFirstOrThrow()).comp_path;
  const direct = async (path: string | null, f: { comp_id?: number; pk?: string }) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from device d join device_state s on s.device_id = d.id
          join company c on c.comp_id = d.comp_id where s.online = 1
          ${path === null ? sql`` : sql`and c.comp_path like ${`${path}%`}`}
          ${f.comp_id ? sql`and d.comp_id = ${f.comp_id}::int` : sql``} ${f.pk ? sql`and d.pk = ${f.pk}` : sql``}`.execute(dbOf(t))
      ).rows[0]?.n,
    );
  const parentPath = await pathOf(parent.comp_id);
  const cases: [string, string | null, { comp_id?: number; pk?: string }][] = [
    [t.adminToken, null, {}],
    [t.adminToken, null, { comp_id: child.comp_id }],
    [t.adminToken, null, { pk: 'PKCHILD' }],
    [t.adminToken, null, { comp_id: parent.comp_id, pk: 'PKPARENT' }],
    [boss, parentPath, {}],
    [boss, parentPath, { comp_id: child.comp_id }],
    [boss, parentPath, { pk: 'PKCHILD' }],
    [siblingBoss, await pathOf(sibling.comp_id), {}],
  ];
  for (const [token, path, f] of cases) {
    expect((await list(token, { online: 1, ...f })).count, `${path} ${JSON.stringify(f)}`).toBe(await direct(path, f));
  }
};

beforeAll(async () => {
  t = await startTestServer();
  parent = await addCompany(t, { comp_name: 'Dev Parent' });
  child = await addCompany(t, { comp_name: 'Dev Child', comp_parent_id: parent.comp_id });
  sibling = await addCompany(t, { comp_name: 'Dev Sibling' });
  const role = await addRole(t, { name: 'Dev boss', comp_id: parent.comp_id, menuKeys: ['product/device'], data_scope: 2 });
  await addUser(t, { user_id: 'dev.boss', comp_id: parent.comp_id, role_id: role.id, user_type: 2, password: 'Dev-pw-1' });
  boss = await t.login('dev.boss', 'Dev-pw-1');
  const role2 = await addRole(t, { name: 'Sib boss', comp_id: sibling.comp_id, menuKeys: ['product/device'], data_scope: 2 });
  await addUser(t, { user_id: 'sib.boss', comp_id: sibling.comp_id, role_id: role2.id, user_type: 2, password: 'Sib-pw-1' });
  siblingBoss = await t.login('sib.boss', 'Sib-pw-1');
  await addProduct(t, 'PKPARENT', parent.comp_id);
  await addProduct(t, 'PKCHILD', child.comp_id);
  await addProduct(t, 'PKSIB', sibling.comp_id);
  await addProduct(t, 'PKSHARED', sibling.comp_id, parent.comp_id);
});
afterAll(async () => {
  await t?.close();
});

describe('add one device', () => {
  it('stores UID upper-case and MAC canonical, with a state row, and counts dk', async () => {
    const row = ok(await add(boss, { uid: 'ab-cd-0001', mac: 'aabbccddee01', pk: 'PKPARENT', comp_id: child.comp_id }));
    expect(row.uid).toBe('AB-CD-0001');
    expect(row.mac).toBe('AA:BB:CC:DD:EE:01');
    expect(row.product_name).toBe('Product PKPARENT');
    expect(row.online).toBe(0);
    expect(row.offline_reason).toBe(0);
    const state = await dbOf(t).selectFrom('device_state').selectAll().where('device_id', '=', row.id).executeTakeFirst();
    expect(state?.online).toBe(0);
    await expectDkExact(child.comp_id);
    // MAC with dashes, and no MAC at all.
    expect(ok(await add(boss, { uid: 'AB-CD-0002', mac: 'AA-BB-CC-DD-EE-02', pk: 'PKCHILD', comp_id: child.comp_id })).mac).toBe(
      'AA:BB:CC:DD:EE:02',
    );
    expect(ok(await add(boss, { uid: 'AB-CD-0003', pk: 'PKSHARED', comp_id: parent.comp_id })).mac).toBe('');
  });

  it('refuses bad formats with 406 naming the field', async () => {
    for (const [body, field] of [
      [{ uid: 'abc', pk: 'PKPARENT', comp_id: parent.comp_id }, 'uid'],
      [{ uid: 'HAS SPACE 1', pk: 'PKPARENT', comp_id: parent.comp_id }, 'uid'],
      [{ uid: 'X'.repeat(33), pk: 'PKPARENT', comp_id: parent.comp_id }, 'uid'],
      [{ uid: 'GOOD-UID-9', mac: 'AA:BB:CC:DD:EE', pk: 'PKPARENT', comp_id: parent.comp_id }, 'mac'],
      [{ uid: 'GOOD-UID-9', mac: 'GG:BB:CC:DD:EE:FF', pk: 'PKPARENT', comp_id: parent.comp_id }, 'mac'],
    ] as const) {
      const res = await add(boss, body);
      fails(res, 406);
      expect((res.data as unknown as { fields: Record<string, string> }).fields[field]).toMatch(/^format:/);
    }
    expect(await devicesOf(parent.comp_id)).toBe(1);
  });

  it('answers 409 for a UID or MAC already registered, whatever the case or separators', async () => {
    const a = await add(boss, { uid: 'ab-cd-0001', pk: 'PKPARENT', comp_id: parent.comp_id });
    fails(a, 409);
    expect((a.data as unknown as { fields: Record<string, string> }).fields.uid).toBe('exists');
    const b = await add(boss, { uid: 'AB-CD-0099', mac: 'aa:bb:cc:dd:ee:01', pk: 'PKPARENT', comp_id: parent.comp_id });
    fails(b, 409);
    expect((b.data as unknown as { fields: Record<string, string> }).fields.mac).toBe('exists');
  });

  it('refuses a foreign company or a product the caller cannot see with 406, storing nothing', async () => {
    const before = await devicesOf(sibling.comp_id);
    fails(await add(boss, { uid: 'FOREIGN-01', pk: 'PKPARENT', comp_id: sibling.comp_id }), 406);
    const res = await add(boss, { uid: 'FOREIGN-02', pk: 'PKSIB', comp_id: parent.comp_id });
    fails(res, 406);
    expect((res.data as unknown as { fields: Record<string, string> }).fields.pk).toBe('not_found');
    fails(await add(boss, { uid: 'FOREIGN-03', pk: 'NOPE', comp_id: parent.comp_id }), 406);
    expect(await devicesOf(sibling.comp_id)).toBe(before);
    const n = await dbOf(t).selectFrom('device').select('id').where('uid', 'like', 'FOREIGN-%').execute();
    expect(n).toHaveLength(0);
  });

  it('refuses registrations beyond dk_limit with 406 {comp_id: dk_limit}', async () => {
    const limited = await addCompany(t, { comp_name: 'Dev Limited', comp_parent_id: parent.comp_id, dk_limit: 2 });
    ok(await add(boss, { uid: 'LIMIT-0001', pk: 'PKPARENT', comp_id: limited.comp_id }));
    ok(await add(boss, { uid: 'LIMIT-0002', pk: 'PKPARENT', comp_id: limited.comp_id }));
    const res = await add(boss, { uid: 'LIMIT-0003', pk: 'PKPARENT', comp_id: limited.comp_id });
    fails(res, 406);
    expect((res.data as unknown as { fields: Record<string, string> }).fields.comp_id).toBe('dk_limit');
    expect(await dkOf(limited.comp_id)).toBe(2);
    await expectDkExact(limited.comp_id);
  });
});

describe('list', () => {
  it('is scoped: the sibling sees none of ours, we see none of theirs', async () => {
    ok(await add(siblingBoss, { uid: 'SIB-000001', pk: 'PKSIB', comp_id: sibling.comp_id }));
    const mine = await list(boss, { page_size: 100 });
    expect(mine.rows.every((r) => r.comp_id !== sibling.comp_id)).toBe(true);
    expect(mine.count).toBe(mine.rows.length);
    const theirs = await list(siblingBoss, { page_size: 100 });
    expect(theirs.rows.map((r) => r.uid)).toEqual(['SIB-000001']);
    expect(theirs.count).toBe(1);
    // By UID or id, a foreign device is not found.
    fails(await t.call('iot/uid/reg/query', { uid: 'SIB-000001' }, { token: boss }), 406);
    fails(await t.call('v2/iot/web/uid/info/get', { id: theirs.rows[0]?.id }, { token: boss }), 406);
  });

  it('filters by uid prefix, mac prefix, pk, company, online, registration time; counts agree with rows', async () => {
    const all = await list(t.adminToken, { page_size: 1000 });
    expect(all.count).toBe(all.rows.length);
    expect((await list(boss, { uid: 'ab-cd' })).rows.map((r) => r.uid)).toEqual(['AB-CD-0003', 'AB-CD-0002', 'AB-CD-0001']);
    const byMac = await list(boss, { mac: 'aabbccddee0' });
    expect(byMac.rows.map((r) => r.uid).sort()).toEqual(['AB-CD-0001', 'AB-CD-0002']);
    expect(byMac.count).toBe(2);
    expect((await list(boss, { pk: 'PKCHILD' })).rows.map((r) => r.uid)).toEqual(['AB-CD-0002']);
    expect((await list(boss, { comp_id: child.comp_id })).count).toBe(2);
    expect((await list(boss, { online: 1 })).count).toBe(0);
    const first = all.rows.find((r) => r.uid === 'AB-CD-0001') as Row;
    await dbOf(t)
      .updateTable('device_state')
      .set({ online: 1, active: 1, network_type: 2, vendor: 'Acme', last_online: 1_700_000_000 })
      .where('device_id', '=', first.id)
      .execute();
    const online = await list(boss, { online: 1, active: 1, network_type: 2, vendor: 'acm' });
    expect(online.rows.map((r) => r.uid)).toEqual(['AB-CD-0001']);
    expect(online.count).toBe(1);
    expect((await list(boss, { online_start: 1_700_000_000, online_end: 1_700_000_001 })).count).toBe(1);
    expect((await list(boss, { online: 0 })).rows.some((r) => r.uid === 'AB-CD-0001')).toBe(false);
    const now = nowSeconds();
    expect((await list(boss, { gmt_start: now + 3600 })).count).toBe(0);
    expect((await list(boss, { gmt_start: now - 3600, gmt_end: now + 3600 })).count).toBe((await list(boss)).count);
  });

  it('sorts newest first by default, and by uid on request', async () => {
    const rows = (await list(boss, { page_size: 100 })).rows;
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    const byUid = (await list(boss, { page_size: 100, order_by: 'uid', order: 'asc' })).rows.map((r) => r.uid);
    expect(byUid).toEqual([...byUid].sort());
    fails(await t.call('v2/iot/web/uid/reg/list', { order_by: 'secret' }, { token: boss }), 406);
  });

  it('pages by cursor forwards and backwards, agreeing with page_no', async () => {
    const r = await registerDevicesAs(parent.comp_id, 25, 'CURSOR');
    expect(r.every((x) => x.ok)).toBe(true);
    const p1 = await list(boss, { page_size: 10, uid: 'CURSOR' });
    const p2 = await list(boss, { page_size: 10, page_no: 2, uid: 'CURSOR' });
    const p3 = await list(boss, { page_size: 10, page_no: 3, uid: 'CURSOR' });
    expect(p1.count).toBe(25);
    const next = await list(boss, { page_size: 10, uid: 'CURSOR', cursor: p1.rows.at(-1)?.id, cursor_dir: 'next' });
    expect(next.rows.map((x) => x.id)).toEqual(p2.rows.map((x) => x.id));
    const last = await list(boss, { page_size: 10, uid: 'CURSOR', cursor: p2.rows.at(-1)?.id });
    expect(last.rows.map((x) => x.id)).toEqual(p3.rows.map((x) => x.id));
    const back = await list(boss, { page_size: 10, uid: 'CURSOR', cursor: p3.rows[0]?.id, cursor_dir: 'prev' });
    expect(back.rows.map((x) => x.id)).toEqual(p2.rows.map((x) => x.id));
    fails(await t.call('v2/iot/web/uid/reg/list', { cursor: 1, order_by: 'uid' }, { token: boss }), 406);
  });

  it('answers deep pages through the block counters exactly as OFFSET would', async () => {
    await registerDevicesAs(child.comp_id, 2_100, 'DEEP');
    const all = (await sql<{ id: number }>`select id from device order by id desc`.execute(dbOf(t))).rows.map((r) => Number(r.id));
    const page = await list(t.adminToken, { page_size: 10, page_no: 202 });
    expect(page.rows.map((r) => r.id)).toEqual(all.slice(2010, 2020));
    expect(page.count).toBe(all.length);
    const scoped = (
      await sql<{ id: number }>`select id from device where comp_id = ${child.comp_id} order by id desc`.execute(dbOf(t))
    ).rows.map((r) => Number(r.id));
    const mine = await list(boss, { page_size: 7, page_no: 300, comp_id: child.comp_id });
    expect(mine.rows.map((r) => r.id)).toEqual(scoped.slice(2093, 2100));
    expect((await list(boss, { page_size: 10, page_no: 50_000 })).rows).toEqual([]);
  });
});

const registerDevicesAs = async (compId: number, n: number, prefix: string) =>
  dbOf(t)
    .transaction()
    .execute((trx) =>
      registerDevices(
        trx,
        { kind: 'all' },
        {
          compId,
          importId: null,
          rows: Array.from({ length: n }, (_, i) => ({ uid: `${prefix}-${String(i).padStart(6, '0')}`, mac: '', pk: 'PKPARENT' })),
        },
      ),
    );

describe('registerDevices (imports)', () => {
  it('a row another registration won after the pre-check is skipped; the rest are stored with their state rows', async () => {
    // The race itself: a UID registered between registerDevices' check and its INSERT (here: the check skipped).
    await registerDevicesAs(parent.comp_id, 1, 'RACE');
    const now = nowSeconds();
    const row = (uid: string) => ({
      uid,
      mac: '',
      pk: 'PKPARENT',
      comp_id: parent.comp_id,
      dev_key: 'k',
      import_id: null,
      gmt_create: now,
      gmt_update: now,
    });
    const dkBefore = await dkOf(parent.comp_id);
    const stored = await dbOf(t)
      .transaction()
      .execute(async (trx) => {
        const inserted = await insertDevices(trx, [row('RACE-000000'), row('RACE-NEW-01'), row('RACE-NEW-02')]);
        // The transaction is still usable after the conflict.
        await sql`select 1`.execute(trx);
        return inserted;
      });
    expect(stored.map((r) => r.uid).sort()).toEqual(['RACE-NEW-01', 'RACE-NEW-02']);
    const states = await sql<{ n: number }>`
      select count(*)::int as n from device_state s join device d on d.id = s.device_id where d.uid like 'RACE-NEW-%'`.execute(dbOf(t));
    expect(states.rows[0]?.n).toBe(2);
    expect(await dkOf(parent.comp_id)).toBe(dkBefore + 2);
    await expectDkExact(parent.comp_id);
  });

  it('answers a result per row and stores only the valid ones', async () => {
    const limited = await addCompany(t, { comp_name: 'Import Limited', comp_parent_id: parent.comp_id, dk_limit: 4 });
    const existing = (await list(boss, { uid: 'AB-CD-0001' })).rows[0] as Row;
    const scope = { kind: 'tree' as const, compId: parent.comp_id, path: '' };
    const compPath = (
      await dbOf(t).selectFrom('company').select('comp_path').where('comp_id', '=', parent.comp_id).executeTakeFirstOrThrow()
    ).comp_path;
    const results = await dbOf(t)
      .transaction()
      .execute((trx) =>
        registerDevices(
          trx,
          { ...scope, path: compPath, compIds: null },
          {
            compId: limited.comp_id,
            importId: null,
            rows: [
              { uid: 'imp-0001', mac: '11:22:33:44:55:66', pk: 'PKPARENT' },
              { uid: 'x', mac: '', pk: 'PKPARENT' },
              { uid: 'IMP-0002', mac: 'zz', pk: 'PKPARENT' },
              { uid: 'IMP-0003', mac: '', pk: 'PKSIB' },
              { uid: 'ab-cd-0001', mac: '', pk: 'PKPARENT' },
              { uid: 'IMP-0004', mac: '112233445566', pk: 'PKPARENT' },
              { uid: 'IMP-0001', mac: '', pk: 'PKPARENT' },
              { uid: 'IMP-0005', mac: '', pk: 'PKSHARED' },
              { uid: 'IMP-0006', mac: '', pk: 'PKCHILD' },
              { uid: 'IMP-0007', mac: '', pk: 'PKPARENT' },
              { uid: 'IMP-0008', mac: '', pk: 'PKPARENT' },
            ],
          },
        ),
      );
    const first = results[0]?.deviceId;
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'ok',
      'uid_format',
      'mac_format',
      'unknown_pk',
      'duplicate_uid',
      'duplicate_mac',
      'duplicate_uid',
      'ok',
      'ok',
      'ok',
      'dk_limit',
    ]);
    expect(results[4]?.existingDeviceId).toBe(existing.id);
    expect(results[5]?.existingDeviceId).toBe(first);
    expect(results[6]?.existingDeviceId).toBe(first);
    expect(results.map((r) => r.index)).toEqual(results.map((_, i) => i));
    expect(await dkOf(limited.comp_id)).toBe(4);
    await expectDkExact(limited.comp_id);
    const states = await sql<{
      n: number;
    }>`select count(*)::int as n from device d join device_state s on s.device_id = d.id where d.comp_id = ${limited.comp_id}`.execute(
      dbOf(t),
    );
    expect(states.rows[0]?.n).toBe(4);
  });

  it('refuses a company outside the scope', async () => {
    await expect(
      dbOf(t)
        .transaction()
        .execute((trx) =>
          registerDevices(trx, { kind: 'own', compId: parent.comp_id }, { compId: sibling.comp_id, importId: null, rows: [] }),
        ),
    ).rejects.toThrow(/company/);
  });
});

describe('bulk actions', () => {
  const bulk = (token: string, body: Record<string, unknown>) =>
    t.call<{ action: string; changed: number }>('v2/iot/web/uid/reg/bulk', body, { token });

  it('counts online devices from the counters, exactly as counting the rows', async () => {
    await sql`update device_state set online = 1 where device_id in (
      select id from device where (uid like 'DEEP%' and id % 3 = 0) or uid like 'CURSOR%' or uid like 'SIB%')`.execute(dbOf(t));
    await expectOnlineCountsExact();
    expect((await list(t.adminToken, { online: 1 })).count).toBeGreaterThan(700);
    // The count really comes from the counters (a wrong counter shows), and the rows still match the filter.
    await sql`update device_online_now set online = online + 1000 where comp_id = 0 and pk = ''`.execute(dbOf(t));
    const skewed = await list(t.adminToken, { online: 1 });
    await sql`update device_online_now set online = online - 1000 where comp_id = 0 and pk = ''`.execute(dbOf(t));
    expect(skewed.count - 1000).toBe((await list(t.adminToken, { online: 1 })).count);
    expect(skewed.rows.every((r) => r.online === 1)).toBe(true);
  });

  it('assigns selected ids to a company, keeping dk exact, never touching foreign ids', async () => {
    const target = await addCompany(t, { comp_name: 'Bulk Target', comp_parent_id: parent.comp_id });
    const rows = (await list(boss, { uid: 'CURSOR', page_size: 3 })).rows;
    const foreign = (await list(siblingBoss)).rows[0] as Row;
    const res = ok(await bulk(boss, { action: 'assign_company', comp_id: target.comp_id, ids: [...rows.map((r) => r.id), foreign.id] }));
    expect(res.changed).toBe(3);
    expect((await list(siblingBoss)).rows[0]?.comp_id).toBe(sibling.comp_id);
    await expectDkExact(target.comp_id, parent.comp_id, sibling.comp_id);
    expect((await list(boss, { comp_id: target.comp_id })).count).toBe(3);
    await expectOnlineCountsExact();
    expect((await list(boss, { comp_id: target.comp_id, online: 1 })).count).toBe(3);
    // A company outside the scope: 406, nothing moved.
    fails(await bulk(boss, { action: 'assign_company', comp_id: sibling.comp_id, ids: [rows[0]?.id] }), 406);
  });

  it('refuses to move more devices than the target dk_limit allows, moving none', async () => {
    const small = await addCompany(t, { comp_name: 'Bulk Small', comp_parent_id: parent.comp_id, dk_limit: 5 });
    const res = await bulk(boss, { action: 'assign_company', comp_id: small.comp_id, filter: { uid: 'CURSOR' } });
    fails(res, 406);
    expect((res.data as unknown as { fields: Record<string, string> }).fields.comp_id).toBe('dk_limit');
    expect(await dkOf(small.comp_id)).toBe(0);
  });

  it('changes the product of every device matching a filter, in scope only', async () => {
    const res = ok(await bulk(boss, { action: 'change_product', pk: 'PKCHILD', filter: { uid: 'DEEP' } }));
    expect(res.changed).toBe(2_100);
    expect((await list(boss, { pk: 'PKCHILD', uid: 'DEEP' })).count).toBe(2_100);
    await expectOnlineCountsExact();
    fails(await bulk(boss, { action: 'change_product', pk: 'PKSIB', filter: { uid: 'DEEP' } }), 406);
  });

  it('deletes on a filter within scope: the sibling’s devices stay, dk follows, the audit records it', async () => {
    const sib = (await list(siblingBoss)).count;
    const res = ok(await bulk(boss, { action: 'delete', filter: {} }));
    expect(res.changed).toBeGreaterThan(2_000);
    expect((await list(boss)).count).toBe(0);
    expect((await list(siblingBoss)).count).toBe(sib);
    await expectDkExact(parent.comp_id, child.comp_id, sibling.comp_id);
    await expectOnlineCountsExact();
    expect((await list(siblingBoss, { online: 1 })).count).toBeGreaterThan(0);
    const blocks = await sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from device_block`.execute(dbOf(t));
    expect(blocks.rows[0]?.n).toBe(Number((await sql<{ n: number }>`select count(*)::int as n from device`.execute(dbOf(t))).rows[0]?.n));
    const audit = await dbOf(t)
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('path', '=', 'v2/iot/web/uid/reg/bulk')
      .execute();
    const deletion = audit.find((a) => a.action === 'del');
    expect(deletion?.changes.action?.after).toBe('delete');
    fails(await bulk(boss, { action: 'delete' }), 406);
    // A selection that matches nothing changes nothing and writes no audit row.
    expect(ok(await bulk(boss, { action: 'delete', filter: { uid: 'NO-SUCH-DEVICE' } })).changed).toBe(0);
    const after = await dbOf(t).selectFrom('audit_log').select('id').where('path', '=', 'v2/iot/web/uid/reg/bulk').execute();
    expect(after.length).toBe(audit.length);
  });
});

describe('one device in depth', () => {
  it('answers info and properties by id or uid', async () => {
    const row = ok(await add(boss, { uid: 'DEPTH-0001', mac: '0a0b0c0d0e0f', pk: 'PKPARENT', comp_id: parent.comp_id }));
    await dbOf(t)
      .updateTable('device_state')
      .set({ properties: JSON.stringify({ fw: '1.2.3' }) as never })
      .where('device_id', '=', row.id)
      .execute();
    const info = ok(
      await t.call<{ uid: string; dev_key: string; company: { dk: number } }>('v2/iot/web/uid/info/get', { id: row.id }, { token: boss }),
    );
    expect(info.uid).toBe('DEPTH-0001');
    expect(info.dev_key).toBe('******');
    expect(info.company.dk).toBe(await devicesOf(parent.comp_id));
    const byMac = ok(await t.call<{ id: number }>('iot/uid/reg/query', { mac: '0A:0B:0C:0D:0E:0F' }, { token: boss }));
    expect(byMac.id).toBe(row.id);
    const props = ok(
      await t.call<{ properties: Record<string, unknown> }>('v2/iot/web/uid/properties/get', { uid: 'depth-0001' }, { token: boss }),
    );
    expect(props.properties).toEqual({ fw: '1.2.3' });
  });
});
