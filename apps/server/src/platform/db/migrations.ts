import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { migration as m0001 } from './migrations/0001_accounts.js';
import { migration as m0002 } from './migrations/0002_user_list_speed.js';
import { migration as m0003 } from './migrations/0003_products.js';
import { migration as m0004 } from './migrations/0004_devices.js';
import { migration as m0006 } from './migrations/0006_device_list.js';
import { migration as m0007 } from './migrations/0007_device_events.js';
import { migration as m0008 } from './migrations/0008_jobs.js';
import { migration as m0009 } from './migrations/0009_device_stats.js';
import { migration as m0010 } from './migrations/0010_stats_months.js';
import { migration as m0011 } from './migrations/0011_licences.js';
import { migration as m0012 } from './migrations/0012_online_now.js';
import { migration as m0013 } from './migrations/0013_heartbeat_hot.js';
import { migration as m0014 } from './migrations/0014_device_key_indexes.js';
import { migration as m0015 } from './migrations/0015_push.js';
import { migration as m0016 } from './migrations/0016_ota.js';
import { migration as m0017 } from './migrations/0017_apps.js';
import { migration as m0018 } from './migrations/0018_appdata.js';
import { migration as m0019 } from './migrations/0019_push_timeline.js';
import { migration as m0020 } from './migrations/0020_push_tokens.js';

/**
 * Every migration, in order, one file each under migrations/ (one SQL dialect:
 * PostgreSQL 15 features only, so PGlite (PG 18) and the Debian server (PG 15) run
 * the same statements). Add a new file and one line here; never edit an applied one.
 */
const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_user_list_speed': m0002,
  '0003_products': m0003,
  '0004_devices': m0004,
  '0006_device_list': m0006,
  '0007_device_events': m0007,
  '0008_jobs': m0008,
  '0009_device_stats': m0009,
  '0010_stats_months': m0010,
  '0011_licences': m0011,
  '0012_online_now': m0012,
  '0013_heartbeat_hot': m0013,
  '0014_device_key_indexes': m0014,
  '0015_push': m0015,
  '0016_ota': m0016,
  '0017_apps': m0017,
  '0018_appdata': m0018,
  '0019_push_timeline': m0019,
  '0020_push_tokens': m0020,
};

class CodeMigrationProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema.
export const migrateToLatest = async (db: Kysely<any>): Promise<void> => {
  const migrator = new Migrator({ db, provider: new CodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
};

/** Ready means reachable and migrated to the latest version this build knows. */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema.
export const isMigrated = async (db: Kysely<any>): Promise<boolean> => {
  const migrator = new Migrator({ db, provider: new CodeMigrationProvider() });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
};
