import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type ConfigEnv, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';

const contractEntry = fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url));
const configFile = fileURLToPath(import.meta.url);

/**
 * Chunking (issue 7: a table page in few, bigger files; the login page light).
 *
 * Every page is a lazy route. Left to itself, the bundler puts the modules that
 * exactly the same set of routes use into one chunk: each page then loads 50–65
 * small files (every antd component, every icon shared by a different set of
 * pages is a chunk of its own), which costs a round trip each on HTTP/1.1 and
 * compresses worse than a few big files.
 *
 * So the production build runs twice. A first pass, in memory and unminified,
 * splits automatically; from it we read which entries (the start-up code, each
 * lazy route, each language) load each module, after tree shaking — which a
 * module graph read through barrels such as `antd` cannot tell. The real build
 * then groups modules by who loads them, from the most shared down:
 *
 * - `vendor` / `app`: everything the start-up code loads (libraries / our code),
 *   plus messages shared by all languages (every language loads them);
 * - `login`: what the login page loads beyond that (other pages that use a piece
 *   of it load it too: Form, Input… it is small);
 * - `public`: what the other public pages (live_cdk…) load;
 * - `shell`: what the signed-in layout (menu, header) loads;
 * - `pages…`: what at least MIN_PAGES pages load, split by whether the light
 *   pages (the dashboard, where everyone lands, and the user's own page) use it,
 *   so that those don't load the table kit;
 * - the rest (a page's own code, what only a few pages share, each language,
 *   ECharts, node-forge) stays split automatically.
 *
 * Each rule only moves a module up when every module it imports goes to the same
 * group or a more shared one, so a group never drags in another group's code.
 */
/**
 * A module goes to a `pages…` group when at least this many pages (of ~30) load it. At 4, Tabs,
 * InputNumber and Switch (7 pages) were loaded by every table page: 8 took /product/device from
 * 416 to 406 KiB for one more small file (issue 7, docs/bench.md).
 */
const MIN_PAGES = 8;
const PLAN_PASS_ENV = 'IOT_WEB_CHUNK_PLAN_PASS';

const rules: Array<[group: string, test: RegExp]> = [
  ['login', /[\\/]features[\\/]auth[\\/]login[\\/]login-page\.tsx$/],
  ['public', /[\\/]features[\\/]shell[\\/]public-placeholder-page\.tsx$/],
  ['shell', /[\\/]src[\\/]app[\\/]app-layout\.tsx$/],
];
const LANGUAGE = /[\\/]src[\\/]locales[\\/](en|zh-CN|zh-TW)\.ts$|[\\/]antd[\\/]es[\\/]locale[\\/]|[\\/]dayjs[\\/]locale[\\/]/;
const PAGE = /[\\/]src[\\/]features[\\/].*-page\.tsx$/;
const LIGHT_PAGES: Array<[suffix: string, test: RegExp]> = [
  ['dash', /[\\/]features[\\/]dashboard[\\/]dashboard-page\.tsx$/],
  ['info', /[\\/]features[\\/]user[\\/]info[\\/]info-page\.tsx$/],
];
const GROUPS = ['vendor', 'app', 'login', 'public', 'shell', 'pages-dash-info', 'pages-dash', 'pages-info', 'pages'];

/** An entry of the first pass: the start-up code, or a chunk loaded by `import()`, named by its modules. */
interface Entry {
  main: boolean;
  modules: string[];
}

/** The first pass: module id → the entries that load it. */
const planChunks = async (env: ConfigEnv): Promise<Map<string, Entry[]>> => {
  process.env[PLAN_PASS_ENV] = '1';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      configFile,
      root: fileURLToPath(new URL('.', import.meta.url)),
      mode: env.mode,
      logLevel: 'error',
      build: { write: false, minify: false, reportCompressedSize: false },
    });
  } finally {
    delete process.env[PLAN_PASS_ENV];
  }
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const item of output.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  const loadedBy = new Map<string, Entry[]>(); // chunk file → entries
  for (const chunk of chunks.values()) {
    if (!chunk.isEntry && !chunk.isDynamicEntry) continue;
    const entry: Entry = { main: chunk.isEntry, modules: chunk.facadeModuleId ? [chunk.facadeModuleId] : chunk.moduleIds };
    const stack = [chunk.fileName];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const file = stack.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      loadedBy.set(file, [...(loadedBy.get(file) ?? []), entry]);
      stack.push(...(chunks.get(file)?.imports ?? []));
    }
  }
  const plan = new Map<string, Entry[]>();
  for (const chunk of chunks.values()) for (const id of chunk.moduleIds) plan.set(id, loadedBy.get(chunk.fileName) ?? []);
  return plan;
};

/** The group of a module (see above), or undefined to leave it to the automatic split. */
const groupOf = (id: string, entries: Entry[] | undefined): string | undefined => {
  if (!entries || entries.length === 0) return undefined;
  const loads = (test: RegExp) => entries.some((e) => e.modules.some((m) => test.test(m)));
  if (entries.some((e) => e.main)) return /[\\/]node_modules[\\/]/.test(id) ? 'vendor' : 'app';
  if (entries.every((e) => e.modules.some((m) => LANGUAGE.test(m)))) return entries.length > 1 ? 'app' : undefined;
  for (const [group, test] of rules) if (loads(test)) return group;
  if (entries.filter((e) => e.modules.some((m) => PAGE.test(m))).length < MIN_PAGES) return undefined;
  return ['pages', ...LIGHT_PAGES.filter(([, test]) => loads(test)).map(([suffix]) => suffix)].join('-');
};

/**
 * A file of locales/areas/ holds one area's messages in the three languages, and each language
 * file (locales/en.ts…) takes its own from it. As one module shared by the three language chunks
 * it would land in a common chunk with all three; so each language file imports a copy of its
 * own (`?language=en`), of which tree shaking keeps that language only.
 */
const localeAreaPerLanguage = (): Plugin => ({
  name: 'iot:locale-area-per-language',
  enforce: 'pre',
  async resolveId(source, importer) {
    const language = importer?.match(/[\\/]src[\\/]locales[\\/](en|zh-CN|zh-TW)\.ts$/)?.[1];
    if (!language || !source.startsWith('./areas/')) return null;
    const resolved = await this.resolve(source, importer, { skipSelf: true });
    return resolved ? `${resolved.id}?language=${language}` : null;
  },
});

export default defineConfig(async (env): Promise<UserConfig> => {
  const plan = env.command === 'build' && !process.env[PLAN_PASS_ENV] ? await planChunks(env) : undefined;
  const groupCache = new Map<string, string | undefined>();
  const cachedGroup = (id: string) => {
    if (!groupCache.has(id)) groupCache.set(id, groupOf(id, plan?.get(id)));
    return groupCache.get(id);
  };
  return {
    plugins: [react(), localeAreaPerLanguage()],
    resolve: { alias: { '@iot/contract': contractEntry } },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      // `vendor` (React, React DOM, the router, i18next, the antd pieces start-up needs) is ~730 kB raw, ~195 KiB brotli.
      chunkSizeWarningLimit: 800,
      rolldownOptions: {
        // The contract's modules only declare things. Marking them side-effect free
        // lets a page that uses constants only (login) leave the zod schemas out.
        treeshake: { moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
        output: {
          // Brotli (quality 11) and gzip copies are written after the build by scripts/precompress.mjs.
          codeSplitting: plan
            ? { groups: GROUPS.map((name, i) => ({ name, priority: 100 - i, test: (id: string) => cachedGroup(id) === name })) }
            : true,
        },
      },
    },
    server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
    preview: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  };
});
