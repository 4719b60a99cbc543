import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@iot/contract': path.resolve(import.meta.dirname, 'packages/contract/src/index.ts') } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: a PGlite per file is memory- and CPU-heavy.
    maxWorkers: 2,
  },
});
