import { PAGER_ITEMS_MOBILE } from '@iot/contract';
import type { PaginationProps } from 'antd';

/** The `max` consecutive page numbers shown around `current`, kept inside 1…pages. */
export const pageWindow = (current: number, pages: number, max: number): [number, number] => {
  const start = Math.min(Math.max(1, current - Math.floor(max / 2)), Math.max(1, pages - max + 1));
  return [start, Math.max(start, Math.min(pages, start + max - 1))];
};

/**
 * SPEC §9: at most 5 page numbers (PAGER_ITEMS; antd's showLessItems: first, current ±1,
 * last), 3 on mobile (PAGER_ITEMS_MOBILE): only the window around the current page and the
 * arrows. The ••• jumpers go too: next to them antd's narrow-screen CSS hides a number.
 */
export const pagerProps = (current: number, pageSize: number, total: number, mobile: boolean): PaginationProps => {
  if (!mobile) return { showLessItems: true };
  const [from, to] = pageWindow(current, Math.ceil(total / pageSize), PAGER_ITEMS_MOBILE);
  return {
    showLessItems: true,
    itemRender: (page, type, element) =>
      type === 'jump-prev' || type === 'jump-next' || (type === 'page' && (page < from || page > to)) ? null : element,
  };
};
