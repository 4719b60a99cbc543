import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export const ADMIN_PASSWORD = 'Admin#e2e-123';
const ROOT = path.resolve(import.meta.dirname, '..');

/** Up to two minutes: PGlite's first open alone takes 20–30 s on two cores shared with other work. */
const waitReady = async (url: string, child: ChildProcess) => {
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready');
};

/** Starts the built server (serving the built console) on a fresh embedded database. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-e2e-'));
  // The server reads index.html once: serve a copy, so a rebuild during the run breaks nothing.
  const webDir = path.join(dataDir, 'web');
  fs.cpSync(process.env.WEB_DIR || path.join(ROOT, 'apps/web/dist'), webDir, { recursive: true });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitReady(url, child);
  } catch (err) {
    // No teardown runs when setup fails: stop the server here.
    child.kill('SIGTERM');
    throw err;
  }
  project.provide('baseUrl', url);
  project.provide('adminPassword', ADMIN_PASSWORD);
  // Where the server keeps ingest.key (generated on first start): the simulator reads it from there.
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    dataDir: string;
  }
}
