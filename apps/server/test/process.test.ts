import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB, type TestDatabase } from './db.js';

/**
 * The server as a process: `main.ts` run by Node (through tsx) on its own database,
 * as `npm start` runs it: first-start admin, JSON logs with request ids, graceful SIGTERM.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
let child: ChildProcess;
let url: string;
let output = '';
let testDb: TestDatabase | undefined;
let dataDir: string;

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; output so far:\n${output}`);
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-proc-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, WEB_DIR: '', LOG_LEVEL: 'info' };
  delete env.ADMIN_PASSWORD;
  if (TEST_DB === 'postgres') {
    testDb = await createTestDatabase();
    env.DATABASE_URL = testDb.url;
  } else {
    delete env.DATABASE_URL;
  }
  child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], { cwd: ROOT, env });
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  await waitFor(() => /console and API on (http:\/\/\S+)/.test(output));
  const match = /"address":"(http:\/\/[^"]+)"/.exec(output) ?? /Server listening at (http:\/\/\S+?)"/.exec(output);
  url = match?.[1] ?? '';
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await testDb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const logLines = () =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('server process', () => {
  it('creates the first administrator with a random password printed once', () => {
    const line = logLines().find((l) => l.user_id === 'admin' && typeof l.password === 'string');
    expect(line?.password).toMatch(/^\S{12,}$/);
  });

  it('is healthy and ready', async () => {
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const ready = (await (await fetch(`${url}/api/ready`)).json()) as { data: { migrated: boolean } };
    expect(ready.data.migrated).toBe(true);
  });

  it('writes JSON log lines that carry the request id it answers', async () => {
    const res = await fetch(`${url}/api/v2/user/login/key`, { method: 'POST', headers: { 'x-request-id': 'trace-me-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-me-123');
    await waitFor(() => logLines().some((l) => l.reqId === 'trace-me-123' && l.msg === 'request completed'));
    const mine = logLines().filter((l) => l.reqId === 'trace-me-123');
    expect(mine.length).toBeGreaterThanOrEqual(2);
  });

  it('finishes an in-flight request on SIGTERM, then exits cleanly', async () => {
    // A login with a wrong password runs argon2: slow enough to be in flight at SIGTERM.
    const inFlight = fetch(`${url}/api/v2/user/account/list`, { method: 'POST', body: '{}' }).then((r) => r.json());
    const slow = fetch(`${url}/api/v2/user/login/key`, { method: 'POST' }).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 5));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const [a, b] = (await Promise.all([inFlight, slow])) as { code: number }[];
    expect(a?.code).toBe(401);
    expect(b?.code).toBe(200);
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
});
