/** The answer shape of every JSON call (CONTRACT §1). */
export interface Envelope<T = unknown> {
  code: number;
  msg?: string;
  data: T;
  /** Present on list calls: total rows matching the filters. */
  count?: number;
}

/** Field → rule that failed, carried in `data.fields` of a 406 answer. */
export interface FieldErrors {
  fields: Record<string, string>;
}

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 1000;
