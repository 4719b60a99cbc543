import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { pagerProps, pageWindow } from './pagination';

describe('pageWindow', () => {
  it('keeps `max` pages around the current one inside 1…pages', () => {
    expect(pageWindow(1, 6, 3)).toEqual([1, 3]);
    expect(pageWindow(2, 6, 3)).toEqual([1, 3]);
    expect(pageWindow(4, 6, 3)).toEqual([3, 5]);
    expect(pageWindow(6, 6, 3)).toEqual([4, 6]);
    expect(pageWindow(1, 2, 3)).toEqual([1, 2]);
    expect(pageWindow(1, 0, 3)).toEqual([1, 1]);
  });
});

describe('pagerProps', () => {
  const el = 'element' as ReactNode;
  it('desktop: antd showLessItems (at most 5 numbers), no filtering', () => {
    expect(pagerProps(3, 10, 100, false)).toEqual({ showLessItems: true });
  });
  it('mobile: only the 3 numbers around the current page and the arrows', () => {
    const render = pagerProps(4, 10, 60, true).itemRender;
    if (!render) throw new Error('itemRender expected');
    expect([1, 2, 3, 4, 5, 6].map((p) => render(p, 'page', el) !== null)).toEqual([false, false, true, true, true, false]);
    expect(render(1, 'jump-prev', el)).toBeNull();
    expect(render(6, 'jump-next', el)).toBeNull();
    expect(render(5, 'next', el)).toBe(el);
    expect(render(3, 'prev', el)).toBe(el);
  });
});
