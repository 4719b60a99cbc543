/**
 * Two gaps antd tables leave for keyboard and screen-reader users, closed for every table once:
 * - the hidden measure row (`aria-hidden`) copies the header, select-all checkbox included, which
 *   stays reachable by Tab: its controls leave the tab order;
 * - a table wider than its box scrolls sideways but cannot take focus, so the keyboard cannot
 *   scroll it: every scroll box of a table that may scroll sideways (`scroll.x`) is in the tab
 *   order, overflowing or not. Whether it overflows changes at any moment (a live row widens a
 *   column, the window narrows); following it would leave moments when a scrolling box cannot be
 *   reached, and one extra tab stop on a table that fits costs less.
 * Watches the document and fixes what appears, at most once per frame.
 */
const fix = () => {
  for (const el of document.querySelectorAll<HTMLElement>(
    '.ant-table-measure-row input, .ant-table-measure-row button, .ant-table-measure-row [tabindex]',
  ))
    if (el.tabIndex !== -1) el.tabIndex = -1;
  for (const box of document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
    if (box.getAttribute('tabindex') === '0') continue;
    const overflow = getComputedStyle(box).overflowX;
    if (overflow === 'auto' || overflow === 'scroll') box.setAttribute('tabindex', '0');
  }
};

let installed = false;
export const installTableA11y = () => {
  if (installed || typeof MutationObserver === 'undefined') return;
  installed = true;
  let scheduled = false;
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      fix();
    });
  }).observe(document.body, { childList: true, subtree: true });
};
