import { ALL_MENU_KEYS, ErrorCode, LANGUAGES } from '@iot/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AreaLoaders } from './areas';
import enBase, { areas as enAreas } from './en';
import zhCNBase, { areas as zhCNAreas } from './zh-CN';
import zhTWBase, { areas as zhTWAreas } from './zh-TW';

type Tree = { [key: string]: string | Tree };

/** `{a: {b: 'x'}}` → `{'a.b': 'x'}` */
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((acc, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') acc[key] = v;
    else Object.assign(acc, flatten(v, key));
    return acc;
  }, {});

/** A language's base messages with every area merged in, as the console holds them once all are loaded. */
const withAreas = async <T extends object>(base: T, areas: AreaLoaders) => {
  const loaded = await Promise.all(Object.values(areas).map((load) => load()));
  for (const area of loaded)
    for (const key of Object.keys(area)) expect(base, `area key ${key} shadows a base key`).not.toHaveProperty(key);
  return Object.assign({}, base, ...loaded) as T & Awaited<ReturnType<AreaLoaders[keyof AreaLoaders]>>;
};

let en: Awaited<ReturnType<typeof withAreas<typeof enBase>>>;
let zhCN: typeof en;
let zhTW: typeof en;
const locales: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  en = await withAreas(enBase, enAreas);
  zhCN = await withAreas(zhCNBase, zhCNAreas);
  zhTW = await withAreas(zhTWBase, zhTWAreas);
  Object.assign(locales, { en: flatten(en), 'zh-CN': flatten(zhCN), 'zh-TW': flatten(zhTW) });
});

describe('locales', () => {
  it('cover exactly the supported languages', () => {
    expect(Object.keys(locales).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const a of LANGUAGES) {
    for (const b of LANGUAGES) {
      if (a === b) continue;
      it(`every ${a} key exists in ${b}`, () => {
        const [ma, mb] = [locales[a] ?? {}, locales[b] ?? {}];
        expect(Object.keys(ma).length).toBeGreaterThan(500);
        const missing = Object.keys(ma).filter((k) => !(k in mb));
        expect(missing).toEqual([]);
      });
    }
  }

  it('have no empty messages', () => {
    for (const [lang, messages] of Object.entries(locales)) {
      const empty = Object.entries(messages)
        .filter(([, v]) => v.trim() === '')
        .map(([k]) => `${lang}:${k}`);
      expect(empty).toEqual([]);
    }
  });

  it('label every menu key of MENU_TREE in all languages', () => {
    for (const [lang, messages] of Object.entries(locales)) {
      const missing = ALL_MENU_KEYS.filter((k) => !messages[`menu.${k}`]).map((k) => `${lang}:menu.${k}`);
      expect(missing).toEqual([]);
    }
  });

  it('translate every error code of the contract, and unknown_error', () => {
    const codes = [...Object.values(ErrorCode).map(String), 'unknown_error'];
    for (const [lang, messages] of Object.entries(locales)) {
      const missing = codes.filter((c) => !messages[`errors.${c}`]).map((c) => `${lang}:errors.${c}`);
      expect(missing).toEqual([]);
    }
  });
});
