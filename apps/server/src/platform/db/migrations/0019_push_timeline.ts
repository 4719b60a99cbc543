import { type Kysely, type Migration, sql } from 'kysely';
import { logDayTriggers } from './log-day.js';

/**
 * Push records paged like the logs (platform/timeline.ts): newest first by (gmt_create, id)
 * from their indexes, counted per day, company and channel in `log_day` (log 4), so page 1,
 * deep pages and the count stay fast at millions of rows. Existing records are counted once.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create index push_record_ts_idx on push_record (gmt_create, id);
      create index push_record_comp_ts_idx on push_record (comp_id, gmt_create, id);
      create index push_record_channel_ts_idx on push_record (channel, gmt_create, id);
      create index push_record_source_idx on push_record (source, id);
      drop index push_record_comp_idx;
    `.execute(db);
    await logDayTriggers({ table: 'push_record', log: 4, part: 'comp_id', kind: 'channel', ts: 'gmt_create' }).execute(db);
    await sql`
      insert into log_day (log, part, day, k, n)
      select 4, v.part, g.day, v.k, sum(g.c)::bigint
      from (select comp_id as part, (gmt_create / 86400)::int as day, channel::int as k, count(*) as c from push_record group by 1, 2, 3) g
      cross join lateral (values (g.part, g.k), (g.part, 0), (0, g.k), (0, 0)) as v(part, k)
      group by v.part, g.day, v.k
      on conflict (log, part, day, k) do update set n = log_day.n + excluded.n
    `.execute(db);
  },
};
