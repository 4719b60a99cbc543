import { DuplicateState, ImportState } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, fails, ok } from './helpers.js';
import { buildXlsx, type JobRowLite, uploadImport, waitJob } from './jobs-helpers.js';

// product/dev_dup: UID/MAC conflicts met at import, resolved by keep_existing, replace or
// ignore, with the resolution recorded (row and audit log) and the key counters exact.
let t: TestServer;
let parent: { comp_id: number };
let child: { comp_id: number };
let stranger: { comp_id: number };
let token: string;
let pk: string;

interface Dup {
  id: number;
  import_id: number | null;
  uid: string;
  mac: string;
  comp_id: number;
  reason: string;
  existing_device_id: number;
  existing_comp_id: number | null;
  state: number;
  resolution: string | null;
  resolved_by: string | null;
}

const dkOf = async (compId: number) =>
  Number((await dbOf(t).selectFrom('company').select('dk').where('comp_id', '=', compId).executeTakeFirstOrThrow()).dk);
const countOf = async (compId: number) => (await dbOf(t).selectFrom('device').select('id').where('comp_id', '=', compId).execute()).length;
const dups = async (body: Record<string, unknown> = {}, tk = token) =>
  ok(await t.call<Dup[]>('iot/uid/duplicate/get', body, { token: tk }));
const resolve = (id: number, resolution: string, tk = token) => t.call<Dup>('iot/uid/duplicate/set', { id, resolution }, { token: tk });

beforeAll(async () => {
  t = await startTestServer();
  parent = await addCompany(t, { comp_name: 'Dup parent' });
  child = await addCompany(t, { comp_name: 'Dup child', comp_parent_id: parent.comp_id, dk_limit: 2 });
  stranger = await addCompany(t, { comp_name: 'Dup stranger' });
  const role = await addRole(t, { name: 'dups', comp_id: parent.comp_id, menuKeys: ['product/device', 'product/dev_dup'], data_scope: 2 });
  await addUser(t, { user_id: 'dup-admin', comp_id: parent.comp_id, role_id: role.id, user_type: 2 });
  token = await t.login('dup-admin', 'Passw0rd!');
  pk = ok(await t.call<{ pk: string }>('user/product/add', { name: 'Dup cam', comp_id: parent.comp_id }, { token: t.adminToken })).pk;
  // Registered in the parent: four devices the import will run into.
  for (const [uid, mac] of [
    ['DUP-0001', 'AA:00:00:00:00:01'],
    ['DUP-0002', 'AA:00:00:00:00:02'],
    ['DUP-0003', 'AA:00:00:00:00:03'],
    ['DUP-0004', 'AA:00:00:00:00:04'],
  ]) {
    ok(await t.call('v2/iot/web/uid/reg/add', { uid, mac, pk, comp_id: parent.comp_id }, { token }));
  }
  const file = await buildXlsx([
    ['DUP-0001', 'BB:00:00:00:00:01', pk], // same UID
    ['NEW-0002', 'AA:00:00:00:00:02', pk], // same MAC
    ['DUP-0003', '', pk],
    ['DUP-0004', '', pk],
  ]);
  const key = await uploadImport(t, token, file);
  const job = ok(await t.call<JobRowLite>('iot/dev/file/update', { file_key: key, comp_id: child.comp_id }, { token }));
  const done = await waitJob(t, token, 'iot/dev/file/query', job.id, [ImportState.IMPORTED, ImportState.FAILED]);
  expect(done.fail_count).toBe(4);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('duplicates', () => {
  it('lists the conflicts of the import with the existing registration', async () => {
    const rows = await dups({ state: DuplicateState.PENDING });
    expect(rows.map((r) => [r.uid, r.reason, r.comp_id, r.existing_comp_id]).sort()).toEqual([
      ['DUP-0001', 'duplicate_uid', child.comp_id, parent.comp_id],
      ['DUP-0003', 'duplicate_uid', child.comp_id, parent.comp_id],
      ['DUP-0004', 'duplicate_uid', child.comp_id, parent.comp_id],
      ['NEW-0002', 'duplicate_mac', child.comp_id, parent.comp_id],
    ]);
  });

  it('keep_existing drops the new registration and records who decided', async () => {
    const row = (await dups()).find((r) => r.uid === 'DUP-0003') as Dup;
    const before = await countOf(parent.comp_id);
    const out = ok(await resolve(row.id, 'keep_existing'));
    expect([out.state, out.resolution, out.resolved_by]).toEqual([DuplicateState.RESOLVED, 'keep_existing', 'dup-admin']);
    expect(await countOf(parent.comp_id)).toBe(before);
    fails(await resolve(row.id, 'replace'), 406);
    const audit = ok(
      await t.call<{ path: string; target_id: string }[]>('v2/user/audit/list', { path: 'iot/uid/duplicate/set' }, { token: t.adminToken }),
    );
    expect(audit.some((a) => a.target_id === String(row.id))).toBe(true);
  });

  it('replace moves the existing registration to the new values and owner, counters exact', async () => {
    const row = (await dups()).find((r) => r.uid === 'NEW-0002') as Dup;
    const [p0, c0] = [await dkOf(parent.comp_id), await dkOf(child.comp_id)];
    ok(await resolve(row.id, 'replace'));
    const device = await dbOf(t).selectFrom('device').selectAll().where('id', '=', row.existing_device_id).executeTakeFirstOrThrow();
    expect([device.uid, device.mac, device.comp_id]).toEqual(['NEW-0002', 'AA:00:00:00:00:02', child.comp_id]);
    expect([await dkOf(parent.comp_id), await dkOf(child.comp_id)]).toEqual([p0 - 1, c0 + 1]);
    expect(await dkOf(parent.comp_id)).toBe(await countOf(parent.comp_id));
    expect(await dkOf(child.comp_id)).toBe(await countOf(child.comp_id));
  });

  it('replace respects the new owner’s dk_limit', async () => {
    const first = (await dups()).find((r) => r.uid === 'DUP-0001') as Dup;
    ok(await resolve(first.id, 'replace'));
    expect(await dkOf(child.comp_id)).toBe(2);
    const last = (await dups()).find((r) => r.uid === 'DUP-0004') as Dup;
    const answer = await resolve(last.id, 'replace');
    fails(answer, 406);
    expect(answer.data).toEqual({ fields: { comp_id: 'dk_limit' } });
    expect((await dups()).find((r) => r.id === last.id)?.state).toBe(DuplicateState.PENDING);
    ok(await resolve(last.id, 'ignore'));
    expect((await dups({ state: DuplicateState.PENDING })).length).toBe(0);
  });

  it('a caller outside the conflict’s company sees nothing and changes nothing', async () => {
    const role = await addRole(t, { name: 'stranger dups', comp_id: stranger.comp_id, menuKeys: ['product/dev_dup'], data_scope: 2 });
    await addUser(t, { user_id: 'dup-stranger', comp_id: stranger.comp_id, role_id: role.id, user_type: 2 });
    const other = await t.login('dup-stranger', 'Passw0rd!');
    expect(await dups({}, other)).toEqual([]);
    const any = (await dups())[0] as Dup;
    fails(await resolve(any.id, 'ignore', other), 406);
    fails(await resolve(any.id, 'delete_everything'), 406);
  });

  it('a registration refused with 409 stores no device but records its conflict, which resolves like an import’s', async () => {
    const existing = await dbOf(t).selectFrom('device').select(['id', 'uid']).where('uid', 'in', ['DUP-0003', 'DUP-0004']).execute();
    const idOf = (uid: string) => existing.find((d) => d.uid === uid)?.id;
    const [pc, cc, pdk, cdk] = [
      await countOf(parent.comp_id),
      await countOf(child.comp_id),
      await dkOf(parent.comp_id),
      await dkOf(child.comp_id),
    ];
    fails(
      await t.call('v2/iot/web/uid/reg/add', { uid: 'dup-0003', mac: 'cc-00-00-00-00-03', pk, comp_id: parent.comp_id }, { token }),
      409,
    );
    fails(
      await t.call('v2/iot/web/uid/reg/add', { uid: 'REG-0005', mac: 'aa:00:00:00:00:04', pk, comp_id: child.comp_id }, { token }),
      409,
    );
    // A refusal for another reason records nothing.
    fails(
      await t.call('v2/iot/web/uid/reg/add', { uid: 'bad uid!', mac: 'aa:00:00:00:00:04', pk, comp_id: child.comp_id }, { token }),
      406,
    );
    expect([await countOf(parent.comp_id), await countOf(child.comp_id), await dkOf(parent.comp_id), await dkOf(child.comp_id)]).toEqual([
      pc,
      cc,
      pdk,
      cdk,
    ]);
    const pending = await dups({ state: DuplicateState.PENDING });
    expect(pending.map((r) => [r.uid, r.mac, r.reason, r.comp_id, r.existing_device_id, r.import_id]).sort()).toEqual([
      ['DUP-0003', 'CC:00:00:00:00:03', 'duplicate_uid', parent.comp_id, idOf('DUP-0003'), null],
      ['REG-0005', 'AA:00:00:00:00:04', 'duplicate_mac', child.comp_id, idOf('DUP-0004'), null],
    ]);
    const byUid = pending.find((r) => r.uid === 'DUP-0003') as Dup;
    ok(await resolve(byUid.id, 'replace'));
    const device = await dbOf(t)
      .selectFrom('device')
      .select(['uid', 'mac'])
      .where('id', '=', byUid.existing_device_id)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({ uid: 'DUP-0003', mac: 'CC:00:00:00:00:03' });
    ok(await resolve((pending.find((r) => r.uid === 'REG-0005') as Dup).id, 'ignore'));
    expect((await dups({ state: DuplicateState.PENDING })).length).toBe(0);
  });
});
