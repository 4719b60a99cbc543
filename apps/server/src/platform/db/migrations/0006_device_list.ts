import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The device list at a million rows (docs/bench.md "Device list"):
 * - `company.dk` (devices registered per company) is kept exact by statement-level triggers
 *   with transition tables, in the same transaction as the change, whoever changes `device`
 *   (add, import, bulk move, delete). An unfiltered list counts its scope from `dk`.
 * - `device_block` counts devices per company and id block (`id >> 16`, 65,536 ids): a deep
 *   page in the default order (id descending) finds its block from a few hundred counter rows,
 *   then walks at most one block of a narrow index instead of skipping half a million rows.
 * - UID and MAC filters are prefix matches served by pattern indexes (both stored upper-case).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table device_block (
        comp_id integer not null,
        block integer not null,
        n integer not null,
        primary key (comp_id, block)
      );
      insert into device_block (comp_id, block, n) select comp_id, (id >> 16)::int, count(*) from device group by 1, 2;
      update company c set dk = coalesce((select count(*) from device d where d.comp_id = c.comp_id), 0);

      create function device_count_insert() returns trigger language plpgsql as $$
      begin
        update company c set dk = c.dk + n.n
          from (select comp_id, count(*)::int as n from new_rows group by comp_id) n where c.comp_id = n.comp_id;
        insert into device_block (comp_id, block, n)
          select comp_id, (id >> 16)::int, count(*)::int from new_rows group by 1, 2
          on conflict (comp_id, block) do update set n = device_block.n + excluded.n;
        return null;
      end $$;

      create function device_count_delete() returns trigger language plpgsql as $$
      begin
        update company c set dk = greatest(c.dk - n.n, 0)
          from (select comp_id, count(*)::int as n from old_rows group by comp_id) n where c.comp_id = n.comp_id;
        update device_block b set n = b.n - o.n
          from (select comp_id, (id >> 16)::int as block, count(*)::int as n from old_rows group by 1, 2) o
          where b.comp_id = o.comp_id and b.block = o.block;
        return null;
      end $$;

      -- A device moved to another company: out of the old one's counters, into the new one's.
      create function device_count_update() returns trigger language plpgsql as $$
      begin
        with moved as (
          select o.id, o.comp_id as old_comp, n.comp_id as new_comp
          from old_rows o join new_rows n on n.id = o.id where o.comp_id <> n.comp_id
        ), delta as (select old_comp as comp_id, id, -1 as d from moved union all select new_comp, id, 1 from moved)
        insert into device_block (comp_id, block, n)
          select comp_id, (id >> 16)::int, sum(d)::int from delta group by 1, 2
          on conflict (comp_id, block) do update set n = device_block.n + excluded.n;
        with moved as (
          select o.comp_id as old_comp, n.comp_id as new_comp
          from old_rows o join new_rows n on n.id = o.id where o.comp_id <> n.comp_id
        ), delta as (select old_comp as comp_id, -1 as d from moved union all select new_comp, 1 from moved)
        update company c set dk = greatest(c.dk + m.d, 0)
          from (select comp_id, sum(d)::int as d from delta group by comp_id) m where c.comp_id = m.comp_id;
        return null;
      end $$;

      create function device_count_truncate() returns trigger language plpgsql as $$
      begin
        delete from device_block;
        update company set dk = 0 where dk <> 0;
        return null;
      end $$;

      create trigger device_count_insert after insert on device
        referencing new table as new_rows for each statement execute function device_count_insert();
      create trigger device_count_delete after delete on device
        referencing old table as old_rows for each statement execute function device_count_delete();
      create trigger device_count_update after update on device
        referencing old table as old_rows new table as new_rows for each statement execute function device_count_update();
      create trigger device_count_truncate after truncate on device
        for each statement execute function device_count_truncate();

      -- Deep pages of a scope walk (id, comp_id) backwards index-only; UID/MAC prefix filters.
      create index device_id_comp_idx on device (id, comp_id);
      create index device_uid_prefix_idx on device (uid text_pattern_ops);
      create index device_mac_prefix_idx on device (mac text_pattern_ops) where mac <> '';
      create index device_state_last_online_idx on device_state (last_online, device_id);
    `.execute(db);
  },
};
