/**
 * Two gaps antd tables leave for keyboard and screen-reader users, closed for every table once:
 * - the hidden measure row (`aria-hidden`) copies the header, select-all checkbox included, which
 *   stays reachable by Tab: its controls leave the tab order;
 * - a table wider than its box scrolls sideways but cannot take focus, so the keyboard cannot
 *   scroll it: the scrolling box joins the tab order while it overflows.
 * Watches the document for new tables (at most once per frame), and each scrolling box and its
 * table for size changes: a table can start to overflow without any node being added (columns
 * widen when rows or fonts arrive), which a mutation observer alone misses.
 */
const SCROLL_BOXES = '.ant-table-content, .ant-table-body';

const markOverflow = (box: HTMLElement) => {
  const overflows = box.scrollWidth > box.clientWidth;
  if (overflows && box.getAttribute('tabindex') !== '0') box.setAttribute('tabindex', '0');
  else if (!overflows && box.getAttribute('tabindex') === '0') box.removeAttribute('tabindex');
};

const watched = new WeakSet<HTMLElement>();
let sizes: ResizeObserver | undefined;

const fix = () => {
  for (const el of document.querySelectorAll<HTMLElement>(
    '.ant-table-measure-row input, .ant-table-measure-row button, .ant-table-measure-row [tabindex]',
  ))
    if (el.tabIndex !== -1) el.tabIndex = -1;
  for (const box of document.querySelectorAll<HTMLElement>(SCROLL_BOXES)) {
    markOverflow(box);
    if (!sizes || watched.has(box)) continue;
    watched.add(box);
    sizes.observe(box);
    if (box.firstElementChild) sizes.observe(box.firstElementChild);
  }
};

let installed = false;
export const installTableA11y = () => {
  if (installed || typeof MutationObserver === 'undefined') return;
  installed = true;
  if (typeof ResizeObserver !== 'undefined')
    sizes = new ResizeObserver((entries) => {
      for (const { target } of entries) {
        const box = target.matches(SCROLL_BOXES) ? target : target.parentElement;
        if (box instanceof HTMLElement && box.isConnected) markOverflow(box);
      }
    });
  let scheduled = false;
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      fix();
    });
  }).observe(document.body, { childList: true, subtree: true });
  window.addEventListener('resize', () => requestAnimationFrame(fix));
};
