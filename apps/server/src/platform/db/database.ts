import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely';
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

/**
 * A pg pool whose parameterised queries run as named prepared statements: PostgreSQL
 * then parses and plans each distinct statement once per connection instead of on every
 * call (most of a short list query's cost). Statements without parameters (migrations,
 * BEGIN/COMMIT) stay unnamed, so several statements may still share one text.
 */
const preparedStatementPool = (pool: pg.Pool): PostgresPool => ({
  async connect() {
    const client = await pool.connect();
    return {
      query: ((text: unknown, values?: readonly unknown[]) => {
        if (typeof text !== 'string' || !values || values.length === 0) return client.query(text as string, values as unknown[]);
        const name = `k${crypto.createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
        return client.query({ name, text, values: values as unknown[] });
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  },
  end: () => pool.end(),
});

export const openDatabase = async (opts: OpenDatabaseOptions): Promise<Database> => {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) });
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
