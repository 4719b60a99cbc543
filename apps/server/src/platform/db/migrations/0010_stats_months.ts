import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Device statistics, a coarser level and a cheap online sample (docs/bench.md "Device statistics").
 *
 * - `device_monthly`: `device_daily` summed per UTC calendar month (`month` = months since
 *   1970-01, `stats_month(day)`), with the same roll-up rows (`comp_id` 0, `pk` ''). A long range
 *   reads its whole months here and only its partial edge months from `device_daily`, so a
 *   366-day per-product breakdown reads 12 rows per company and product instead of 366.
 *   `device_stats_fold()` now writes it from the same deltas, in the same statement, so it stays
 *   exactly the sum of the daily rows; it is backfilled from `device_daily` here.
 * - Indexes by (company, day / month) carrying `pk`: a scoped per-product breakdown reads only
 *   the range's rows of each company in scope, not every day of each of its products.
 * - `device_online_daily` keyed with its counts too (index-only reads); the server now samples
 *   online devices in short statements (stats.repository.ts `sampleOnlineDevices`) instead of
 *   `device_online_sample(now)`'s one long statement, which stays for manual use.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      -- Fold what is pending with the old fold first: the backfill below then starts from exact daily rows.
      select device_stats_fold();

      create function stats_month(p_day integer) returns integer language sql immutable parallel safe as $$
        select ((extract(year from d) - 1970) * 12 + extract(month from d) - 1)::int from (select date '1970-01-01' + p_day as d) x
      $$;

      create table device_monthly (
        comp_id integer not null,
        pk text not null,
        month integer not null,
        registered integer not null default 0,
        activated integer not null default 0,
        primary key (comp_id, pk, month) include (registered, activated)
      );
      create index device_monthly_pk_idx on device_monthly (pk, month) include (comp_id, registered, activated);
      create index device_monthly_comp_idx on device_monthly (comp_id, month) include (pk, registered, activated) where pk <> '';

      -- Index-only reads of the scoped series (companies in scope x days) and per-company breakdowns:
      -- the keys carry the counts. The products of a scope read by company and day, whatever the product.
      alter table device_daily drop constraint device_daily_pkey, add primary key (comp_id, pk, day) include (registered, activated);
      create index device_daily_comp_idx on device_daily (comp_id, day) include (pk, registered, activated) where pk <> '';
      alter table device_online_daily drop constraint device_online_daily_pkey,
        add primary key (comp_id, pk, day) include (online_peak, online_last, gmt_sample);

      insert into device_monthly (comp_id, pk, month, registered, activated)
        select comp_id, pk, stats_month(day), sum(registered)::int, sum(activated)::int
        from device_daily group by 1, 2, 3;

      create or replace function device_stats_fold() returns integer language plpgsql as $$
      declare n integer;
      begin
        perform pg_advisory_xact_lock(7300509);
        -- Data-modifying CTEs run once each, on the rows the first one took.
        with moved as (
          delete from device_stats_pending returning comp_id, pk, day, registered, activated, country, devices
        ), daily as (
          insert into device_daily (comp_id, pk, day, registered, activated)
            select coalesce(comp_id, 0), coalesce(pk, ''), day, sum(registered)::int, sum(activated)::int
            from moved where country = ''
            group by grouping sets ((comp_id, pk, day), (comp_id, day), (pk, day), (day))
            on conflict (comp_id, pk, day) do update
              set registered = device_daily.registered + excluded.registered, activated = device_daily.activated + excluded.activated
        ), monthly as (
          insert into device_monthly (comp_id, pk, month, registered, activated)
            select coalesce(comp_id, 0), coalesce(pk, ''), month, sum(registered)::int, sum(activated)::int
            from (select comp_id, pk, stats_month(day) as month, registered, activated from moved where country = '') m
            group by grouping sets ((comp_id, pk, month), (comp_id, month), (pk, month), (month))
            on conflict (comp_id, pk, month) do update
              set registered = device_monthly.registered + excluded.registered, activated = device_monthly.activated + excluded.activated
        ), total as (
          insert into device_total (comp_id, pk, registered, activated)
            select coalesce(comp_id, 0), coalesce(pk, ''), sum(registered)::int, sum(activated)::int
            from moved where country = ''
            group by grouping sets ((comp_id, pk), (comp_id), (pk), ())
            having count(*) > 0
            on conflict (comp_id, pk) do update
              set registered = device_total.registered + excluded.registered, activated = device_total.activated + excluded.activated
        ), countries as (
          insert into device_country (comp_id, pk, country, devices)
            select coalesce(comp_id, 0), coalesce(pk, ''), country, sum(devices)::int
            from moved where country <> ''
            group by grouping sets ((comp_id, pk, country), (comp_id, country), (pk, country), (country))
            on conflict (comp_id, pk, country) do update set devices = device_country.devices + excluded.devices
        )
        select count(*)::int into n from moved;
        return n;
      end $$;

      create or replace function device_stats_truncate() returns trigger language plpgsql as $$
      begin
        delete from device_stats_pending;
        delete from device_stats_member;
        delete from device_daily;
        delete from device_monthly;
        delete from device_total;
        delete from device_country;
        return null;
      end $$;

      -- The rebuild of 0009 plus the monthly level (it refills through the fold).
      create or replace function device_stats_rebuild() returns void language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(7300509);
        delete from device_stats_pending;
        delete from device_stats_member;
        delete from device_daily;
        delete from device_monthly;
        delete from device_total;
        delete from device_country;
        insert into device_stats_member (device_id, comp_id, pk, active_day, country)
          select s.device_id, d.comp_id, d.pk,
            case when s.active = 1 and s.gmt_active is not null then (s.gmt_active / 86400)::int end, s.country
          from device_state s join device d on d.id = s.device_id
          where (s.active = 1 and s.gmt_active is not null) or s.country <> '';
        insert into device_stats_pending (comp_id, pk, day, registered)
          select comp_id, pk, (gmt_create / 86400)::int, count(*)::int from device group by 1, 2, 3;
        insert into device_stats_pending (comp_id, pk, day, activated)
          select comp_id, pk, active_day, count(*)::int from device_stats_member where active_day is not null group by 1, 2, 3;
        insert into device_stats_pending (comp_id, pk, country, devices)
          select comp_id, pk, country, count(*)::int from device_stats_member where country <> '' group by 1, 2, 3;
        perform device_stats_fold();
      end $$;
    `.execute(db);
  },
};
