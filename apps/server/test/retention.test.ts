import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobServicesOf } from '../src/modules/iot/job-files.js';
import { DEVICE_LOGS, SERVICE_LOGS } from '../src/modules/iot/log.repository.js';
import { RECORDS } from '../src/modules/push/record.repository.js';
import { ALARMS } from '../src/modules/umh/alarm.repository.js';
import { pruneLogs } from '../src/platform/retention.js';
import { nowSeconds } from '../src/platform/time.js';
import { startTestServer, type TestServer } from './harness.js';
import { dbOf, ok } from './helpers.js';

/**
 * Log retention (LOG_RETENTION_DAYS, 180 by default): alarm, device and service log lines and
 * push records older than it are dropped; the lists' counts and deep pages (from `log_day`) stay
 * exact, and day counters of dropped days go.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ logRetentionDays: 180, logPruneMs: 0 });
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400;

/** `n` rows per log on each of the given days ago (at noon UTC of that day, one second apart). */
const seed = async (daysAgo: number[], n: number) => {
  const db = dbOf(t);
  const now = nowSeconds();
  const times = daysAgo.flatMap((d) => Array.from({ length: n }, (_, i) => Math.floor((now - d * DAY) / DAY) * DAY + 43_200 + i));
  for (const ts of times) {
    await sql`insert into alarm_log (device_id, uid, pk, comp_id, alarm_type, text, ts) values (1, 'RET-1', 'PK', 1, 2, 'motion', ${ts})`.execute(
      db,
    );
    await sql`insert into device_log (device_id, uid, comp_id, level, text, ts) values (1, 'RET-1', 1, 3, 'line', ${ts})`.execute(db);
    await sql`insert into service_log (service_id, level, node, text, ts) values (1, 2, 'node-a', 'svc', ${ts})`.execute(db);
    await sql`
      insert into push_record (comp_id, channel, platform_id, template_id, event_type, recipient, lang, lang_fallback, title, body, params, state, source, gmt_create, next_attempt)
      values (1, 2, 0, 0, 7, 'ops@example.com', 'en', false, 't', 'b', '{}', 2, 'test', ${ts}, 0)`.execute(db);
  }
};

const countOf = async (path: string) => {
  const answer = await t.call<unknown[]>(path, { page_no: 1, page_size: 10 }, { token: t.adminToken });
  ok(answer);
  return (answer as unknown as { count: number }).count;
};

const LISTS = ['v2/umh/admin/alarmlog/list', 'v2/iot/admin/log/list', 'v2/kls/admin/log/list', 'v2/push/record/list'];

describe('log retention', () => {
  it('drops rows older than the retention from every log, keeps the rest, and the counts follow', async () => {
    const before = await Promise.all(LISTS.map(countOf));
    await seed([400, 200], 3); // past the 180 days
    await seed([179, 10, 0], 2); // within
    const seeded = await Promise.all(LISTS.map(countOf));
    expect(seeded.map((n, i) => n - (before[i] ?? 0))).toEqual([12, 12, 12, 12]);

    const dropped = await pruneLogs(jobServicesOf(t.app), [ALARMS, DEVICE_LOGS, SERVICE_LOGS, RECORDS]);
    expect(dropped).toEqual({ alarm_log: 6, device_log: 6, service_log: 6, push_record: 6 });

    // The lists count what is left, from the day counters, exactly as a row-by-row count would.
    const after = await Promise.all(LISTS.map(countOf));
    expect(after).toEqual(seeded.map((n) => n - 6));
    const cutoffDay = Math.floor((nowSeconds() - 180 * DAY) / DAY);
    for (const [table, log, ts] of [
      ['alarm_log', 1, 'ts'],
      ['device_log', 2, 'ts'],
      ['service_log', 3, 'ts'],
      ['push_record', 4, 'gmt_create'],
    ] as const) {
      const rows = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(ts)} < ${cutoffDay * DAY}`.execute(dbOf(t));
      expect(rows.rows[0]?.n, table).toBe(0);
      const counters = await sql<{ n: number }>`select count(*)::int as n from log_day where log = ${log} and day < ${cutoffDay}`.execute(
        dbOf(t),
      );
      expect(counters.rows[0]?.n, `${table} day counters`).toBe(0);
    }

    // A second run finds nothing more to drop.
    expect(await pruneLogs(jobServicesOf(t.app), [ALARMS, DEVICE_LOGS, SERVICE_LOGS, RECORDS])).toEqual({
      alarm_log: 0,
      device_log: 0,
      service_log: 0,
      push_record: 0,
    });
  });

  it('drops in slices until nothing old is left, and 0 days keeps everything', async () => {
    const db = dbOf(t);
    const old = nowSeconds() - 365 * DAY;
    await sql`insert into device_log (device_id, uid, comp_id, level, text, ts) select 1, 'RET-2', 1, 1, 'bulk', ${old}::bigint + g from generate_series(1, 25000) g`.execute(
      db,
    );
    const keepAll = { ...jobServicesOf(t.app), config: { ...jobServicesOf(t.app).config, logRetentionDays: 0 } };
    expect(await pruneLogs(keepAll, [DEVICE_LOGS])).toEqual({});
    expect(await pruneLogs(jobServicesOf(t.app), [DEVICE_LOGS])).toEqual({ device_log: 25_000 });
    const left = await sql<{ n: number }>`select count(*)::int as n from device_log where uid = 'RET-2'`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
  });
});
