import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';

/** Where the generated ingestion key lives; the simulator reads it from there. */
export const INGEST_KEY_FILE = 'ingest.key';

/**
 * The ingestion service key of `npm start`: INGEST_SERVICE_KEY when given (`off`: ingestion
 * disabled), otherwise a random key kept in DATA_DIR/ingest.key, created on first start, so
 * a fresh single-process install works with the simulator out of the box. Several
 * processes with their own DATA_DIR must share one INGEST_SERVICE_KEY instead.
 */
export const withIngestServiceKey = (config: Config, env: NodeJS.ProcessEnv = process.env): Config => {
  if (env.INGEST_SERVICE_KEY) return config;
  const file = path.join(config.dataDir, INGEST_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, `${crypto.randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return { ...config, ingestServiceKey: fs.readFileSync(file, 'utf8').trim() };
};
