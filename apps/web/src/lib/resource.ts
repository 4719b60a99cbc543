import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './api';

export interface ListResult<Row> {
  rows: Row[];
  count: number;
}

export type Payload = Record<string, unknown>;

export interface ResourceConfig<Row> {
  /** Query-key root; every mutation of the resource invalidates it. */
  name: string;
  list: string;
  add?: string;
  set?: string;
  del?: string;
  /** The row field that identifies it in `set` (comp_id, id, menu_id…). */
  idField: keyof Row & string;
  /** The `del` payload for a row; default `{ id: row[idField] }` (CONTRACT §3). */
  delPayload?: (row: Row) => Payload;
}

/** Paths whose answers feed other resources (e.g. a company picker) share the root name. */
export const listQueryOptions = <Row>(name: string, path: string, params: Payload) =>
  queryOptions({
    queryKey: [name, 'list', path, params] as const,
    queryFn: async ({ signal }): Promise<ListResult<Row>> => {
      const env = await call<Row[]>(path, params, { signal });
      const rows = Array.isArray(env.data) ? env.data : [];
      return { rows, count: env.count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });

/** A single `data` answer (get calls). */
export const dataQueryOptions = <T>(name: string, path: string, params: Payload = {}) =>
  queryOptions({
    queryKey: [name, 'data', path, params] as const,
    queryFn: async ({ signal }): Promise<T> => (await call<T>(path, params, { signal })).data,
  });

/** Only the `count` of a list (dashboard cards): page_size 1. */
export const countQueryOptions = (name: string, path: string, params: Payload = {}) =>
  queryOptions({
    queryKey: [name, 'count', path, params] as const,
    queryFn: async ({ signal }): Promise<number> => {
      const env = await call<unknown[]>(path, { ...params, page_no: 1, page_size: 1 }, { signal });
      return env.count ?? (Array.isArray(env.data) ? env.data.length : 0);
    },
  });

/** A mutation on any path that invalidates the given query roots on success. */
export const useApiMutation = <T = unknown>(path: string, invalidate: string[] = []) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (payload: Payload) => (await call<T>(path, payload)).data,
    onSuccess: async () => {
      await Promise.all(invalidate.map((name) => qc.invalidateQueries({ queryKey: [name] })));
    },
  });
};

/**
 * Declare a resource once: its paths and id field. Screens get query options and
 * hooks for list, add, set, del, and any extra action on the same rows.
 */
export const defineResource = <Row>(config: ResourceConfig<Row>) => {
  return {
    ...config,
    listOptions: (params: Payload) => listQueryOptions<Row>(config.name, config.list, params),
    useList: (params: Payload, enabled = true) => useQuery({ ...listQueryOptions<Row>(config.name, config.list, params), enabled }),
    useAdd: () => useApiMutation<Row>(config.add ?? '', [config.name]),
    useSet: () => useApiMutation<Row>(config.set ?? '', [config.name]),
    useDel: () => useApiMutation(config.del ?? '', [config.name]),
    /** Another command on these rows (approve, reset…): invalidates the list afterwards. */
    useAction: (path: string) => useApiMutation(path, [config.name]),
    delPayloadOf: (row: Row): Payload => config.delPayload?.(row) ?? { id: row[config.idField] },
    idOf: (row: Row) => row[config.idField],
  };
};

export type Resource<Row> = ReturnType<typeof defineResource<Row>>;
