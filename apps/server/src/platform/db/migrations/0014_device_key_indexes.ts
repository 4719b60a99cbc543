import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Two indexes fewer on `device` (faster registration and import).
 *
 * UIDs and MACs are stored upper-case (normalizeUid, normalizeMac), and every lookup already goes
 * through `upper(uid)` / `upper(mac)`. Each column had a unique index on `upper(…)` (0004) and,
 * for the list's prefix filters, a second `text_pattern_ops` index on the column (0006): every
 * registered device paid for both. One unique `upper(…) text_pattern_ops` index per column
 * serves equality, `= any`/`in`, the uniqueness and `upper(…) like 'PREFIX%'`; the list's
 * filters now compare `upper(d.uid)` / `upper(d.mac)`. The unique indexes keep their names
 * (the catalogue of unique-violation codes refers to them).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      drop index device_uid_prefix_idx;
      drop index device_mac_prefix_idx;
      drop index device_uid_key;
      create unique index device_uid_key on device (upper(uid) text_pattern_ops);
      drop index device_mac_key;
      create unique index device_mac_key on device (upper(mac) text_pattern_ops) where mac <> '';
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      drop index device_uid_key;
      create unique index device_uid_key on device (upper(uid));
      drop index device_mac_key;
      create unique index device_mac_key on device (upper(mac)) where mac <> '';
      create index device_uid_prefix_idx on device (uid text_pattern_ops);
      create index device_mac_prefix_idx on device (mac text_pattern_ops) where mac <> '';
    `.execute(db);
  },
};
