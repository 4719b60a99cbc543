import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;
/** The connection or the open transaction: repositories take either as first argument. */
export type Conn = Kysely<DB> | Transaction<DB>;

// bigint (unix seconds, counts) as numbers on both drivers: our values stay below 2^53.
pg.types.setTypeParser(20, (v: string) => Number(v));
pg.types.setTypeParser(1700, (v: string) => Number(v));

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory (embedded mode). */
  pgliteDir?: string;
  poolSize?: number;
}

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export const openDatabase = async (opts: OpenDatabaseOptions): Promise<Database> => {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (!opts.pgliteDir) throw new Error('pgliteDir is required without databaseUrl');
  fs.mkdirSync(path.dirname(opts.pgliteDir), { recursive: true });
  const pglite = await PGlite.create(opts.pgliteDir, {
    parsers: { [types.INT8]: (v: string) => Number(v), [types.NUMERIC]: (v: string) => Number(v) },
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
};
