import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contractEntry = fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url));

/**
 * Chunking: every page is a lazy route, so the login route only pulls the
 * antd pieces it renders. Big shared libraries get stable chunks of their own
 * (cache-friendly across deploys); antd itself is left to the automatic
 * splitter, because forcing it into one group would drag Table, Menu, etc.
 * into the login page. antd/dayjs locales and node-forge are dynamic imports
 * and end up in small chunks of their own.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@iot/contract': contractEntry } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // The contract's modules only declare things. Marking them side-effect free
      // lets a page that uses constants only (login) leave the zod schemas out.
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/, priority: 25 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 25 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/, priority: 25 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 25 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  preview: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
