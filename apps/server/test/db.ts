import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrations.js';
import { seedMenus } from '../src/platform/seed.js';

/**
 * Test databases. TEST_DB=postgres uses TEST_DATABASE_URL's server: a migrated
 * template database is made once per run and each test file gets a copy with a
 * random name, dropped at the end. Otherwise PGlite: a migrated template data
 * directory is copied per file. No test relies on leftover state.
 */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const ROOT = path.join(os.tmpdir(), 'iot-console-test');
/**
 * The template of this run, named by the global setup in the environment the test
 * workers inherit: several runs at once (other checkouts, CI jobs) never share one.
 */
const TEMPLATE_ENV = 'IOT_TEST_TEMPLATE';
const templateOfRun = () => {
  const name = process.env[TEMPLATE_ENV];
  if (!name) throw new Error(`${TEMPLATE_ENV} is unset: run the tests through vitest (global-setup.ts)`);
  return name;
};

const serverUrl = () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
  return url;
};
const urlFor = (name: string) => {
  const u = new URL(serverUrl());
  u.pathname = `/${name}`;
  return u.toString();
};
const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

const randomName = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`;

/** Runs once per test run (vitest globalSetup). */
export const prepareTemplate = async (): Promise<() => Promise<void>> => {
  fs.mkdirSync(ROOT, { recursive: true });
  if (TEST_DB === 'postgres') {
    const name = randomName('iot_tpl');
    await admin((c) => c.query(`create database ${name}`));
    const database = await openDatabase({ databaseUrl: urlFor(name), poolSize: 2 });
    await migrateToLatest(database.db);
    await seedMenus(database.db);
    await database.close();
    process.env[TEMPLATE_ENV] = name;
    return async () => {
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    };
  }
  const dir = path.join(ROOT, randomName('pglite_tpl'));
  const database = await openDatabase({ pgliteDir: dir });
  await migrateToLatest(database.db);
  await seedMenus(database.db);
  await database.close();
  process.env[TEMPLATE_ENV] = dir;
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  };
};

export interface TestDatabase {
  database: Database;
  /** Where a second server process can reach the same database (PostgreSQL only). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh migrated database for one test file. */
export const createTestDatabase = async (): Promise<TestDatabase> => {
  if (TEST_DB === 'postgres') {
    const template = templateOfRun();
    const name = randomName('iot_test');
    await admin((c) => c.query(`create database ${name} template ${template}`));
    const url = urlFor(name);
    const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
    return {
      database,
      url,
      drop: async () => {
        await database.close();
        // pg's pool.end() resolves before its sockets close: give the backends a moment to exit, or
        // the forced drop terminates a closing client, an uncaught 57P01 in the test run.
        await admin(async (c) => {
          for (let i = 0; i < 50; i++) {
            const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
            if (Number(r.rows[0]?.n) === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await c.query(`drop database if exists ${name} with (force)`);
        });
      },
    };
  }
  const dir = path.join(ROOT, randomName('pglite'));
  fs.cpSync(templateOfRun(), dir, { recursive: true });
  const database = await openDatabase({ pgliteDir: dir });
  return {
    database,
    url: undefined,
    drop: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};
