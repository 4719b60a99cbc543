import { MENU_TREE } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import type { MenuIconSet } from './menu-icons/icon-set';
import { icons as top } from './menu-icons/top';

/** The sidebar finds a screen's icon in its group's module (sidebar-icon.tsx): MENU_TREE and menu-icons/ must agree. */
describe('menu icons', () => {
  it('hold every top-level group icon of MENU_TREE in top.ts', () => {
    expect(MENU_TREE.map((g) => g.icon).filter((name) => !top[name])).toEqual([]);
  });

  for (const group of MENU_TREE) {
    it(`hold the ${group.key} screens' icons in menu-icons/${group.key}.ts`, async () => {
      const { icons } = (await import(`./menu-icons/${group.key}.ts`)) as { icons: MenuIconSet };
      expect((group.children ?? []).map((c) => c.icon).filter((name) => !icons[name])).toEqual([]);
    });
  }
});
