// `npm start`: install what is missing, build, then run the server (it migrates, creates the
// first administrator and serves the console and /api on one port).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfStale, ensureInstalled, ROOT } from './lib.mjs';

ensureInstalled();
buildIfStale();

const server = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], { cwd: ROOT, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
