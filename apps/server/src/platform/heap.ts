import v8 from 'node:v8';

/**
 * V8's heap growing factor for this process. By default V8 lets the old generation grow to up to
 * four times what survived the last full collection before it collects again, when collecting is
 * cheap — a bulk job (a 100,000-row import: ~50 MB live) then leaves the process at 300+ MB of
 * garbage. `HEAP_GROWING_PERCENT` = p fixes the factor at 1 + p/100 (default 50: collect once the
 * heap is half as big again as the live set); 0 keeps V8's own choice. A `--heap-growing-percent`
 * given on the command line wins. Called once at start, before any work (main.ts).
 */
export const tuneHeap = (heapGrowingPercent: number) => {
  if (heapGrowingPercent <= 0) return;
  if (process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
};
