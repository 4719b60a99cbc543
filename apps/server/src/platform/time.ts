/** Unix seconds now: every time on the wire and in storage (CONTRACT §1). */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A unix time as its UTC day, `2026-11-26` (statistics files). */
export const utcDay = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 10);

/** A unix time as `2026-11-26 04:47:02` UTC, or '' for none (files people read). */
export const utcTime = (unix: number | null): string =>
  unix === null ? '' : new Date(unix * 1000).toISOString().replace('T', ' ').slice(0, 19);
