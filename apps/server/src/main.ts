import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { withIngestServiceKey } from './modules/iot/ingest-key.js';
import { openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrations.js';
import { tuneHeap } from './platform/heap.js';
import { ensureFirstAdmin, seedMenus } from './platform/seed.js';

// Unset INGEST_SERVICE_KEY: the key of DATA_DIR/ingest.key (created on first start), for the simulator.
const config = withIngestServiceKey(loadConfig());
tuneHeap(config.heapGrowingPercent);
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
await migrateToLatest(database.db);
await seedMenus(database.db);
const app = await buildApp({ config, database });
await ensureFirstAdmin(database.db, config.adminPassword, app.log);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // close() stops accepting connections and waits for in-flight requests to finish.
  await app.close();
  await database.close();
  app.log.info('stopped');
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info({ database: database.kind, dataDir: config.dataDir }, `console and API on http://${config.host}:${config.port}`);
