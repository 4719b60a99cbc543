import { sql } from 'kysely';

/**
 * Statement-level triggers that keep `log_day` (rows per UTC day, per part and kind; 0 = every
 * part / kind) for a time-ordered table (platform/timeline.ts). Used by the migrations that
 * create such tables: the SQL a migration ran must never change, so change this only by adding
 * a parameter whose default keeps it.
 */
export interface LogDaySource {
  table: string;
  log: number;
  part: string;
  kind: string;
  /** The time column (unix seconds); default `ts`. */
  ts?: string;
}

export const logDayTriggers = (src: LogDaySource) => {
  const ts = src.ts ?? 'ts';
  const fold = (rows: string, sign: string) => `
    insert into log_day (log, part, day, k, n)
    select ${src.log}, v.part, g.day, v.k, ${sign} sum(g.c)::bigint
    from (select ${src.part}::int as part, (${ts} / 86400)::int as day, ${src.kind}::int as k, count(*) as c from ${rows} group by 1, 2, 3) g
    cross join lateral (values (g.part, g.k), (g.part, 0), (0, g.k), (0, 0)) as v(part, k)
    group by v.part, g.day, v.k
    order by 2, 3, 4
    on conflict (log, part, day, k) do update set n = log_day.n + excluded.n;`;
  return sql.raw(`
    create function ${src.table}_count_insert() returns trigger language plpgsql as $$
    begin ${fold('new_rows', '')} return null; end $$;
    create function ${src.table}_count_delete() returns trigger language plpgsql as $$
    begin ${fold('old_rows', '-')} return null; end $$;
    create trigger ${src.table}_count_insert after insert on ${src.table}
      referencing new table as new_rows for each statement execute function ${src.table}_count_insert();
    create trigger ${src.table}_count_delete after delete on ${src.table}
      referencing old table as old_rows for each statement execute function ${src.table}_count_delete();
  `);
};
