import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** Browser tests: the built console served by the built server, driven in Chromium. */
export default defineConfig({
  resolve: { alias: { '@iot/contract': path.resolve(import.meta.dirname, 'packages/contract/src/index.ts') } },
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser and one server: files run one after another.
    fileParallelism: false,
  },
});
