import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Heartbeats as HOT updates (ingestion at a million devices).
 *
 * A heartbeat only moves `device_state.last_seen`, but 0007's sweeper index
 * `device_state (last_seen) where online = 1` indexed that very column, so every heartbeat was a
 * non-HOT update: a new row version on another page plus an entry in each of the table's
 * indexes (primary key, online, last_online, the sweeper's), i.e. five random page writes per
 * event instead of one. At 1,000,000 devices those pages no longer fit in shared buffers.
 *
 * - `seen_mark`: a lower bound of `last_seen` for online devices, written when a device comes
 *   online (that update changes the indexed `online` anyway) and by the sweeper, never by a plain
 *   heartbeat. The sweeper reads `(seen_mark) where online = 1`: a device silent since before T
 *   has `seen_mark <= last_seen < T`, so it is found exactly as before; a device whose mark is
 *   old but that is still alive gets its mark moved up to `last_seen` (about once per timeout
 *   per online device, instead of once per heartbeat).
 * - fillfactor 85 leaves room on each page for the new row versions of HOT updates (pages
 *   written from now on; existing pages get it when the table is rewritten).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      alter table device_state add column seen_mark bigint;
      update device_state set seen_mark = last_seen where online = 1;
      drop index device_state_online_seen_idx;
      create index device_state_online_mark_idx on device_state (seen_mark) where online = 1;
      alter table device_state set (fillfactor = 85);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      alter table device_state reset (fillfactor);
      drop index device_state_online_mark_idx;
      alter table device_state drop column seen_mark;
      create index device_state_online_seen_idx on device_state (last_seen) where online = 1;
    `.execute(db);
  },
};
