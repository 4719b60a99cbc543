import { dayLabel, dayOf, type StatsOutput } from '@iot/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstDayOfMonth,
  foldDeviceStats,
  monthOfDay,
  readDeviceStats,
  sampleOnlineDevices,
  splitRange,
} from '../src/modules/iot/stats.repository.js';
import type { Scope } from '../src/platform/context.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addProduct, addRole, addUser, dbOf, fails, nowSeconds, ok } from './helpers.js';

// Device statistics (info/dev): rollups kept exact by triggers, scope, range limits, the xlsx.
let t: TestServer;
let parent: { comp_id: number };
let child: { comp_id: number };
let sibling: { comp_id: number };
let boss: string;
let siblingBoss: string;
let noMenu: string;

const DAY = 86_400;
const today = dayOf(nowSeconds());
/** Registrations spread over the last 10 days (day offsets from today). */
const at = (daysAgo: number, second = 3600) => (today - daysAgo) * DAY + second;

let serial = 0;
/** Devices straight into the tables (the registration screen is another module's), with state rows. */
const addDevices = async (n: number, compId: number, pk: string, daysAgo: number) => {
  const rows = Array.from({ length: n }, () => {
    serial += 1;
    return {
      uid: `STAT-${String(serial).padStart(6, '0')}`,
      mac: '',
      dev_key: '',
      pk,
      comp_id: compId,
      gmt_create: at(daysAgo, serial),
      gmt_update: at(daysAgo),
    };
  });
  const ids = await dbOf(t).insertInto('device').values(rows).returning('id').execute();
  await sql`insert into device_state (device_id) select unnest(${ids.map((r) => Number(r.id))}::bigint[])`.execute(dbOf(t));
  return ids.map((r) => Number(r.id));
};

const activate = async (ids: number[], daysAgo: number, country: string) => {
  await sql`update device_state set active = 1, gmt_active = ${at(daysAgo)}::bigint, country = ${country}
    where device_id = any(${ids}::bigint[])`.execute(dbOf(t));
};

type Key = string;
const rowsOf = async <R>(q: ReturnType<typeof sql<R>>) => (await q.execute(dbOf(t))).rows;

/** Every rollup (detail and roll-up rows) against a direct count of the tables. */
const expectRollupsExact = async () => {
  await foldDeviceStats(dbOf(t));
  const toMap = (rows: { k: Key; n: number }[]) => new Map(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.k, Number(r.n)]));
  const daily = await rowsOf(sql<{ k: Key; n: number }>`
    select comp_id || '|' || pk || '|' || day || '|r' as k, registered as n from device_daily
    union all select comp_id || '|' || pk || '|' || day || '|a', activated from device_daily
    union all select comp_id || '|' || pk || '|r', registered from device_total
    union all select comp_id || '|' || pk || '|a', activated from device_total
    union all select comp_id || '|' || pk || '|' || country || '|c', devices from device_country`);
  const direct = await rowsOf(sql<{ k: Key; n: number }>`
    with reg as (select comp_id, pk, (gmt_create / 86400)::int as day from device),
    act as (select d.comp_id, d.pk, (s.gmt_active / 86400)::int as day from device d join device_state s on s.device_id = d.id
            where s.active = 1 and s.gmt_active is not null),
    ctry as (select d.comp_id, d.pk, s.country from device d join device_state s on s.device_id = d.id where s.country <> '')
    select coalesce(comp_id, 0) || '|' || coalesce(pk, '') || '|' || day || '|r' as k, count(*)::int as n from reg
      group by grouping sets ((comp_id, pk, day), (comp_id, day), (pk, day), (day))
    union all select coalesce(comp_id, 0) || '|' || coalesce(pk, '') || '|' || day || '|a', count(*)::int from act
      group by grouping sets ((comp_id, pk, day), (comp_id, day), (pk, day), (day))
    union all select coalesce(comp_id, 0) || '|' || coalesce(pk, '') || '|r', count(*)::int from reg
      group by grouping sets ((comp_id, pk), (comp_id), (pk), ())
    union all select coalesce(comp_id, 0) || '|' || coalesce(pk, '') || '|a', count(*)::int from act
      group by grouping sets ((comp_id, pk), (comp_id), (pk), ())
    union all select coalesce(comp_id, 0) || '|' || coalesce(pk, '') || '|' || country || '|c', count(*)::int from ctry
      group by grouping sets ((comp_id, pk, country), (comp_id, country), (pk, country), (country))`);
  expect(toMap(daily)).toEqual(toMap(direct));
  // The monthly level (0010) is exactly the daily rows summed per month, roll-up rows included.
  const monthly = await rowsOf(sql<{ k: Key; n: number }>`
    select comp_id || '|' || pk || '|' || month || '|r' as k, registered as n from device_monthly
    union all select comp_id || '|' || pk || '|' || month || '|a', activated from device_monthly`);
  const fromDaily = await rowsOf(sql<{ k: Key; n: number }>`
    select comp_id || '|' || pk || '|' || stats_month(day) || '|r' as k, sum(registered)::int as n from device_daily group by comp_id, pk, stats_month(day)
    union all select comp_id || '|' || pk || '|' || stats_month(day) || '|a', sum(activated)::int from device_daily group by comp_id, pk, stats_month(day)`);
  expect(toMap(monthly)).toEqual(toMap(fromDaily));
  await expectOnlineExact();
  return toMap(direct);
};

/** `device_online_now` (migration 0012, detail and roll-up rows) against a direct count of online devices. */
const expectOnlineExact = async () => {
  await foldDeviceStats(dbOf(t));
  const toMap = (rows: { k: Key; n: number }[]) => new Map(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.k, Number(r.n)]));
  const kept = await rowsOf(sql<{ k: Key; n: number }>`select comp_id || '|' || pk as k, online as n from device_online_now`);
  const direct = await rowsOf(sql<{ k: Key; n: number }>`
    select coalesce(d.comp_id, 0) || '|' || coalesce(d.pk, '') as k, count(*)::int as n
    from device d join device_state s on s.device_id = d.id where s.online = 1
    group by grouping sets ((d.comp_id, d.pk), (d.comp_id), (d.pk), ())`);
  expect(toMap(kept)).toEqual(toMap(direct));
  expect(await rowsOf(sql<{ n: number }>`select count(*)::int as n from device_online_now where online < 0`)).toEqual([{ n: 0 }]);
};

const pathOf = async (compId: number) =>
  (await dbOf(t).selectFrom('company').select('comp_path').where('comp_id', '=', compId).executeTakeFirstOrThrow()).comp_path;
const stats = (token: string, body: Record<string, unknown>) => t.call<StatsOutput>('v2/iot/dev/statistics/get', body, { token });
const lastDays = (n: number) => ({ gmt_start: (today - n + 1) * DAY, gmt_end: (today + 1) * DAY });

let parentIds: number[];
let childIds: number[];
let siblingIds: number[];

beforeAll(async () => {
  t = await startTestServer();
  parent = await addCompany(t, { comp_name: 'Stat Parent' });
  child = await addCompany(t, { comp_name: 'Stat Child', comp_parent_id: parent.comp_id });
  sibling = await addCompany(t, { comp_name: 'Stat Sibling' });
  const role = await addRole(t, { name: 'Stat boss', comp_id: parent.comp_id, menuKeys: ['info/dev'], data_scope: 2 });
  await addUser(t, { user_id: 'stat.boss', comp_id: parent.comp_id, role_id: role.id, user_type: 2, password: 'Stat-pw-1' });
  boss = await t.login('stat.boss', 'Stat-pw-1');
  const role2 = await addRole(t, { name: 'Stat sib', comp_id: sibling.comp_id, menuKeys: ['info/dev'], data_scope: 2 });
  await addUser(t, { user_id: 'stat.sib', comp_id: sibling.comp_id, role_id: role2.id, user_type: 2, password: 'Stat-pw-2' });
  siblingBoss = await t.login('stat.sib', 'Stat-pw-2');
  const role3 = await addRole(t, { name: 'Stat none', comp_id: parent.comp_id, menuKeys: ['product/device'], data_scope: 2 });
  await addUser(t, { user_id: 'stat.none', comp_id: parent.comp_id, role_id: role3.id, user_type: 2, password: 'Stat-pw-3' });
  noMenu = await t.login('stat.none', 'Stat-pw-3');
  await addProduct(t, 'STATPA', parent.comp_id);
  await addProduct(t, 'STATPB', parent.comp_id);
  await addProduct(t, 'STATPS', sibling.comp_id);
});
afterAll(async () => {
  await t?.close();
});

describe('rollups', () => {
  it('agree with a direct count after inserts', async () => {
    parentIds = [...(await addDevices(6, parent.comp_id, 'STATPA', 3)), ...(await addDevices(4, parent.comp_id, 'STATPB', 1))];
    childIds = await addDevices(5, child.comp_id, 'STATPA', 1);
    siblingIds = await addDevices(7, sibling.comp_id, 'STATPS', 2);
    const direct = await expectRollupsExact();
    expect(direct.get(`0||${today - 1}|r`)).toBe(9);
    expect(direct.get(`${parent.comp_id}||r`)).toBe(10);
  });

  it('agree after activation and country reports (and ignore heartbeats)', async () => {
    await activate(parentIds.slice(0, 4), 1, 'CN');
    await activate(childIds.slice(0, 2), 0, 'US');
    await activate(siblingIds.slice(0, 3), 0, 'DE');
    await sql`update device_state set last_seen = ${nowSeconds()}::bigint, online = 1 where device_id = any(${childIds}::bigint[])`.execute(
      dbOf(t),
    );
    await sql`update device_state set country = 'FR' where device_id = ${parentIds[5]}::bigint`.execute(dbOf(t));
    const direct = await expectRollupsExact();
    expect(direct.get(`0||${today}|a`)).toBe(5);
    expect(direct.get('0||CN|c')).toBe(4);
  });

  it('agree after moves between companies and products', async () => {
    // Two activated parent devices and one plain one go to the child, one to another product.
    await sql`update device set comp_id = ${child.comp_id}::int where id = any(${[parentIds[0], parentIds[1], parentIds[7]]}::bigint[])`.execute(
      dbOf(t),
    );
    await sql`update device set pk = 'STATPB' where id = ${parentIds[2]}::bigint`.execute(dbOf(t));
    const direct = await expectRollupsExact();
    expect(direct.get(`${child.comp_id}||a`)).toBe(4);
  });

  it('agree after deletes (devices, and a state row alone)', async () => {
    // Online devices among the deleted ones (the child's moved devices are online): their counts go too.
    await sql`update device_state set online = 1 where device_id = any(${[parentIds[3], siblingIds[0], parentIds[5]]}::bigint[])`.execute(
      dbOf(t),
    );
    await expectOnlineExact();
    await sql`delete from device where id = any(${[parentIds[3], siblingIds[0], siblingIds[6]]}::bigint[])`.execute(dbOf(t));
    await sql`delete from device_state where device_id = ${parentIds[5]}::bigint`.execute(dbOf(t));
    const direct = await expectRollupsExact();
    expect(direct.get(`${sibling.comp_id}||r`)).toBe(5);
    expect(direct.get('0||FR|c')).toBeUndefined();
    parentIds = parentIds.filter((id) => id !== parentIds[3]);
  });

  it('agree after a rebuild from the tables', async () => {
    const before = await expectRollupsExact();
    await sql`select device_stats_rebuild()`.execute(dbOf(t));
    expect(await expectRollupsExact()).toEqual(before);
  });
});

describe('monthly level', () => {
  it('splits a range into whole months and edge days that cover it exactly once', () => {
    expect(monthOfDay(0)).toBe(0);
    expect(firstDayOfMonth(monthOfDay(today))).toBeLessThanOrEqual(today);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const first = 18_000 + rand(3000);
      const last = first + rand(366);
      const parts = splitRange(first, last);
      const covered: number[] = [];
      for (const [a, b] of parts.days) for (let d = a; d <= b; d++) covered.push(d);
      if (parts.months) {
        for (let m = parts.months[0]; m <= parts.months[1]; m++) {
          for (let d = firstDayOfMonth(m); d < firstDayOfMonth(m + 1); d++) covered.push(d);
        }
      }
      covered.sort((a, b) => a - b);
      expect(covered.length).toBe(last - first + 1);
      expect(covered[0]).toBe(first);
      expect(covered.at(-1)).toBe(last);
      expect(new Set(covered).size).toBe(covered.length);
      // With whole months inside, only the partial months at the edges are read day by day.
      if (parts.months) for (const [a, b] of parts.days) expect(b - a).toBeLessThan(31);
    }
  });

  it('answers exactly what the daily rows alone answer, for random ranges and scopes', async () => {
    // Devices over the last year (several months, both products, three companies), some activated later.
    const old: number[] = [];
    for (const [daysAgo, comp, pk] of [
      [40, parent.comp_id, 'STATPA'],
      [75, child.comp_id, 'STATPB'],
      [130, sibling.comp_id, 'STATPS'],
      [200, parent.comp_id, 'STATPB'],
      [290, child.comp_id, 'STATPA'],
      [360, parent.comp_id, 'STATPA'],
    ] as const) {
      old.push(...(await addDevices(2 + (daysAgo % 3), comp, pk, daysAgo)));
    }
    await activate(
      old.filter((_, i) => i % 2 === 0),
      20,
      'BR',
    );
    await activate(
      old.filter((_, i) => i % 5 === 1),
      100,
      'JP',
    );
    await expectRollupsExact();
    const sqlMonths = await rowsOf(sql<{ d: number; m: number }>`
      select d, stats_month(d) as m from generate_series(${today - 400}::int, ${today}::int) d`);
    for (const r of sqlMonths) expect(Number(r.m), String(r.d)).toBe(monthOfDay(Number(r.d)));

    const scopes: [string, Scope, { comp_id?: number; pk?: string }][] = [
      ['all', { kind: 'all' }, {}],
      ['all, one product', { kind: 'all' }, { pk: 'STATPA' }],
      ['all, a subtree', { kind: 'all' }, { comp_id: parent.comp_id }],
      ['tree', { kind: 'tree', compId: parent.comp_id, path: await pathOf(parent.comp_id), compIds: null }, {}],
      ['tree, a product', { kind: 'tree', compId: parent.comp_id, path: await pathOf(parent.comp_id), compIds: null }, { pk: 'STATPB' }],
      ['own', { kind: 'own', compId: child.comp_id }, {}],
    ];
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    let withMonths = 0;
    for (let i = 0; i < 40; i++) {
      const first = today - 365 + rand(366);
      const last = Math.min(today, first + rand(366));
      if (splitRange(first, last).months) withMonths++;
      const [name, scope, extra] = scopes[i % scopes.length] as (typeof scopes)[number];
      const input = { gmt_start: first * DAY, gmt_end: (last + 1) * DAY, ...extra };
      const fast = await readDeviceStats(dbOf(t), scope, input);
      const slow = await readDeviceStats(dbOf(t), scope, input, { useMonths: false });
      expect(fast, `${name} ${dayLabel(first)}..${dayLabel(last)}`).toEqual(slow);
    }
    expect(withMonths).toBeGreaterThan(10);
    // A whole year for everyone: the long range really reads months, and still sums every registration.
    const year = await readDeviceStats(dbOf(t), { kind: 'all' }, lastDays(366));
    const all = Number((await rowsOf(sql<{ n: number }>`select count(*)::int as n from device`))[0]?.n);
    expect(year.products.reduce((n, p) => n + p.registered, 0)).toBe(all);
    expect(year.companies.reduce((n, c) => n + c.registered, 0)).toBe(all);
    await sql`delete from device where id = any(${old}::bigint[])`.execute(dbOf(t));
    await expectRollupsExact();
  });
});

describe('v2/iot/dev/statistics/get', () => {
  it('answers the daily series, totals, countries, products and companies for the super admin', async () => {
    const s = ok(await stats(t.adminToken, lastDays(7)));
    expect(s.series).toHaveLength(7);
    expect(s.series.at(-1)?.day).toBe(dayLabel(today));
    const regByDay = await rowsOf(sql<{ day: number; n: number }>`
      select (gmt_create / 86400)::int as day, count(*)::int as n from device group by 1`);
    for (const r of s.series) {
      const expected = regByDay.find((x) => dayLabel(Number(x.day)) === r.day);
      expect(r.registered, r.day).toBe(Number(expected?.n ?? 0));
    }
    const all = Number((await rowsOf(sql<{ n: number }>`select count(*)::int as n from device`))[0]?.n);
    expect(s.totals.devices).toBe(all);
    expect(s.totals.registered).toBe(all);
    const activated = await rowsOf(sql<{ n: number }>`select count(*)::int as n from device_state where active = 1`);
    expect(s.totals.activated).toBe(Number(activated[0]?.n));
    expect(s.totals.activated).toBe(7);
    expect(s.countries[0]).toEqual({ country: 'CN', devices: 3 });
    expect(s.products.map((p) => p.pk).sort()).toEqual(['STATPA', 'STATPB', 'STATPS']);
    expect(s.products.find((p) => p.pk === 'STATPA')?.product_name).toBe('Product STATPA');
    expect(s.companies.find((c) => c.comp_id === sibling.comp_id)).toMatchObject({ comp_name: 'Stat Sibling', registered: 5 });
    expect(s.download_ticket).not.toBe('');
  });

  it('counts only the caller’s company tree (a sibling’s devices never)', async () => {
    const s = ok(await stats(boss, lastDays(7)));
    const mine = Number(
      (
        await rowsOf(
          sql<{ n: number }>`select count(*)::int as n from device where comp_id in (${parent.comp_id}::int, ${child.comp_id}::int)`,
        )
      )[0]?.n,
    );
    expect(s.totals.devices).toBe(mine);
    expect(s.totals.registered).toBe(mine);
    expect(s.companies.map((c) => c.comp_id).sort()).toEqual([parent.comp_id, child.comp_id].sort());
    expect(s.products.map((p) => p.pk)).not.toContain('STATPS');
    expect(s.countries.map((c) => c.country)).not.toContain('DE');
    const sib = ok(await stats(siblingBoss, lastDays(7)));
    expect(sib.totals.devices).toBe(5);
    expect(sib.companies.map((c) => c.comp_id)).toEqual([sibling.comp_id]);
  });

  it('narrows to a company subtree and a product', async () => {
    const c = ok(await stats(boss, { ...lastDays(7), comp_id: child.comp_id }));
    expect(c.totals.devices).toBe(8);
    expect(c.companies.map((x) => x.comp_id)).toEqual([child.comp_id]);
    const p = ok(await stats(t.adminToken, { ...lastDays(7), pk: 'STATPB' }));
    expect(p.totals.devices).toBe(5);
    expect(p.products.map((x) => x.pk)).toEqual(['STATPB']);
    fails(await stats(boss, { ...lastDays(7), comp_id: sibling.comp_id }), 406);
  });

  it('reports online devices now (exact counters, no sample needed), the online share, and the sampled daily series', async () => {
    const countOnline = async (compIds?: number[]) =>
      Number(
        (
          await rowsOf(sql<{ n: number }>`select count(*)::int as n from device_state s join device d on d.id = s.device_id
            where s.online = 1 ${compIds ? sql`and d.comp_id = any(${compIds}::int[])` : sql``}`)
        )[0]?.n,
      );
    // Right after state changes, before any sample: the counters already say so.
    await sql`update device_state set online = 1 where device_id = any(${[parentIds[0], siblingIds[1], siblingIds[2]]}::bigint[])`.execute(
      dbOf(t),
    );
    const online = await countOnline();
    expect(online).toBeGreaterThan(0);
    const before = ok(await stats(t.adminToken, lastDays(3)));
    expect(before.totals.online).toBe(online);
    expect(before.totals.online_share).toBeCloseTo(online / before.totals.devices, 6);
    expect(before.series.at(-1)?.online).toBe(online);
    expect(ok(await stats(boss, lastDays(3))).totals.online).toBe(await countOnline([parent.comp_id, child.comp_id]));
    expect(ok(await stats(siblingBoss, lastDays(3))).totals.online).toBe(await countOnline([sibling.comp_id]));
    expect(ok(await stats(t.adminToken, { ...lastDays(3), comp_id: child.comp_id, pk: 'STATPA' })).totals.online).toBe(
      Number(
        (
          await rowsOf(sql<{ n: number }>`select count(*)::int as n from device_state s join device d on d.id = s.device_id
            where s.online = 1 and d.comp_id = ${child.comp_id}::int and d.pk = 'STATPA'`)
        )[0]?.n,
      ),
    );
    // The daily series keeps its samples.
    expect(await sampleOnlineDevices(dbOf(t), nowSeconds())).toBe(online);
    const s = ok(await stats(t.adminToken, lastDays(3)));
    expect(s.totals.online).toBe(online);
    expect(s.series.at(-1)?.online).toBe(online);
    expect(s.totals.gmt_sample).not.toBeNull();
    // Devices going offline: online now says so at once; today's sampled peak stays.
    await sql`update device_state set online = 0`.execute(dbOf(t));
    const after = ok(await stats(t.adminToken, lastDays(3)));
    expect(after.totals.online).toBe(0);
    expect(after.totals.online_share).toBe(0);
    expect(after.series.at(-1)?.online).toBe(online);
    await expectOnlineExact();
  });

  it('refuses ranges over 366 days, reversed ranges, missing fields, and callers without info/dev', async () => {
    const long = await stats(t.adminToken, { gmt_start: (today - 366) * DAY, gmt_end: (today + 1) * DAY });
    fails(long, 406);
    expect((long.data as unknown as { fields: Record<string, string> }).fields.gmt_end).toBe('too_big:366');
    ok(await stats(t.adminToken, { gmt_start: (today - 365) * DAY, gmt_end: (today + 1) * DAY }));
    fails(await stats(t.adminToken, { gmt_start: today * DAY, gmt_end: today * DAY }), 406);
    fails(await stats(t.adminToken, { gmt_start: today * DAY }), 406);
    fails(await stats(noMenu, lastDays(7)), 513);
  });
});

describe('GET /api/v2/iot/dev/statistics.xlsx', () => {
  const readBook = async (res: Response) => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    return wb;
  };
  const sheetRows = (wb: ExcelJS.Workbook, name: string) => {
    const ws = wb.getWorksheet(name);
    if (!ws) throw new Error(`no sheet ${name}`);
    const rows: unknown[][] = [];
    ws.eachRow((row, i) => {
      if (i > 1) rows.push((row.values as unknown[]).slice(1));
    });
    return rows;
  };

  it('holds the same numbers as the call (Authorization header)', async () => {
    const range = lastDays(7);
    const s = ok(await stats(boss, range));
    const res = await t.raw(`/api/v2/iot/dev/statistics.xlsx?gmt_start=${range.gmt_start}&gmt_end=${range.gmt_end}`, {
      headers: { authorization: `Bearer ${boss}` },
    });
    const wb = await readBook(res);
    expect(sheetRows(wb, 'Daily')).toEqual(s.series.map((r) => [r.day, r.registered, r.activated, r.online]));
    expect(sheetRows(wb, 'Companies')).toEqual(s.companies.map((r) => [r.comp_id, r.comp_name, r.registered, r.activated]));
    expect(sheetRows(wb, 'Products')).toEqual(s.products.map((r) => [r.pk, r.product_name, r.registered, r.activated]));
    expect(sheetRows(wb, 'Countries')).toEqual(s.countries.map((r) => [r.country, r.devices]));
    const summary = new Map(sheetRows(wb, 'Summary').map(([k, v]) => [k, v]));
    expect(summary.get('Devices (all time)')).toBe(s.totals.devices);
    expect(summary.get('Registered')).toBe(s.totals.registered);
  });

  it('accepts the ticket of the call (browser links) within its scope, in Chinese', async () => {
    const range = lastDays(7);
    const s = ok(await stats(siblingBoss, range));
    const url = `/api/v2/iot/dev/statistics.xlsx?gmt_start=${range.gmt_start}&gmt_end=${range.gmt_end}&lang=zh-CN&ticket=${encodeURIComponent(s.download_ticket)}`;
    const wb = await readBook(await t.raw(url, {}));
    expect(sheetRows(wb, '公司')).toEqual([[sibling.comp_id, 'Stat Sibling', 5, 2]]);
  });

  it('refuses no token, a forged ticket, no permission and a bad range', async () => {
    const range = lastDays(7);
    const q = `gmt_start=${range.gmt_start}&gmt_end=${range.gmt_end}`;
    expect(((await (await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}`, {})).json()) as { code: number }).code).toBe(401);
    expect(((await (await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}&ticket=AAAA`, {})).json()) as { code: number }).code).toBe(401);
    const denied = await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}`, { headers: { authorization: `Bearer ${noMenu}` } });
    expect(((await denied.json()) as { code: number }).code).toBe(513);
    const long = await t.raw(`/api/v2/iot/dev/statistics.xlsx?gmt_start=0&gmt_end=${range.gmt_end}`, {
      headers: { authorization: `Bearer ${boss}` },
    });
    expect(((await long.json()) as { code: number }).code).toBe(406);
  });
});
