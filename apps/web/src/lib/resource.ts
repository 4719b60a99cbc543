import {
  keepPreviousData,
  queryOptions,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type AnswerOf, type AnyDef, type Callable, fetchData, fetchList, type ListResult, type PayloadOf, type RowOf } from './api';
import type { LabelArea } from './labels';

export type { ListResult } from './api';

/** Form values and payloads before they are checked against a schema. */
export type Payload = Record<string, unknown>;

/** The query key root of a list: its path. Every command on its rows invalidates it. */
export const listKey = (api: Callable) => api.path;

const listQuery = <Row>(api: Callable, params: unknown) =>
  queryOptions({
    queryKey: [listKey(api), 'list', params] as const,
    queryFn: ({ signal }) => fetchList<Row>(api, params, { signal }),
    placeholderData: keepPreviousData,
  });

/** A list's rows and count, keyed by its path and parameters (pickers share the screens' cache). */
export const listQueryOptions = <C extends Callable>(api: C, params: PayloadOf<C>) => listQuery<RowOf<C>>(api, params);

/** A list answering a tree (`tree: 1`): roots, their children nested under `children`. */
export const treeQueryOptions = <C extends Callable>(api: C, params: PayloadOf<C>) => listQuery<TreeRow<RowOf<C>, 'children'>>(api, params);

/** A single `data` answer (get calls). */
export const dataQueryOptions = <C extends Callable>(api: C, params: PayloadOf<C>) =>
  queryOptions({
    queryKey: [api.path, 'data', params] as const,
    queryFn: ({ signal }) => fetchData<AnswerOf<C>>(api, params, { signal }),
  });

/** Only the `count` of a list (dashboard cards): page_size 1. */
export const countQueryOptions = <C extends Callable>(api: C, params: PayloadOf<C>) =>
  queryOptions({
    queryKey: [listKey(api), 'count', params] as const,
    queryFn: async ({ signal }) => (await fetchList<unknown>(api, { ...(params as Payload), page_no: 1, page_size: 1 }, { signal })).count,
  });

const useCallMutation = <P, T>(api: Callable, affects: Callable[]) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (payload: P) => fetchData<T>(api, payload),
    onSuccess: async () => {
      await Promise.all(affects.map((d) => qc.invalidateQueries({ queryKey: [listKey(d)] })));
    },
  });
};

/** A command on any entry; afterwards the lists it changes (their defs) are refetched. */
export const useApiMutation = <C extends Callable>(api: C, affects: Callable[] = []) =>
  useCallMutation<PayloadOf<C>, AnswerOf<C>>(api, affects);

/** A tree list's rows: each holds its children under `C`. */
export type TreeRow<R, C extends string> = R & { [K in C]?: TreeRow<R, C>[] };

export interface ResourceConfig<L extends AnyDef, A extends LabelArea, T extends string, Add, Set, Del> {
  /** Labels of its columns and fields: `<labels>.fields.<name>`. */
  labels: A;
  list: L;
  add?: Add;
  set?: Set;
  del?: Del;
  /** The row field that identifies a row: sent with `set`, and with `del` (as itself when `del` takes it, else as `id`). */
  id: keyof RowOf<L> & string;
  /** The list answers a tree (with its tree parameter): a row's children are under this field. */
  tree?: T;
  /** Other lists a command here changes (a device added changes its company's key count). */
  affects?: AnyDef[];
}

/**
 * Declare a resource once, from its registry entries: the paths, the row type (the list's
 * output schema), the id field and its labels. Screens get query options and hooks for list,
 * add, set, del, and any other command on the same rows. What a user may do follows from the
 * entries declared and the menus the user holds (see ResourceTable).
 */
export const defineResource = <
  L extends AnyDef,
  A extends LabelArea,
  T extends string = never,
  Add extends AnyDef = never,
  Set extends AnyDef = never,
  Del extends AnyDef = never,
>(
  config: ResourceConfig<L, A, T, Add, Set, Del>,
) => {
  type Row = [T] extends [never] ? RowOf<L> : TreeRow<RowOf<L>, T>;
  const affects: AnyDef[] = [config.list, ...(config.affects ?? [])];
  const idOf = (row: Row): unknown => (row as Payload)[config.id];
  const delShape = (config.del?.input as { shape?: Payload } | undefined)?.shape;
  // Hooks run whether or not the command exists (React's rule); a missing one is never called.
  const command = <C extends AnyDef>(api: C | undefined): C => api ?? (config.list as AnyDef as C);
  return {
    ...config,
    /** The query key root of the rows. */
    key: listKey(config.list),
    listOptions: (params: PayloadOf<L>) => listQuery<Row>(config.list, params),
    useList: (params: PayloadOf<L>, enabled = true) => useQuery({ ...listQuery<Row>(config.list, params), enabled }),
    useAdd: () => useApiMutation(command(config.add), affects),
    useSet: () => useApiMutation(command(config.set), affects),
    useDel: () => useApiMutation(command(config.del), affects),
    /** Another command on these rows (approve, resolve…): refetches them afterwards. */
    useAction: <C extends AnyDef>(api: C) => useApiMutation(api, affects),
    /** add, set or del with a payload the caller has checked against its schema (generic screens). */
    useCommand: (kind: 'add' | 'set' | 'del'): UseMutationResult<unknown, Error, Payload> =>
      useCallMutation<Payload, unknown>(command(config[kind]), affects),
    idOf,
    /** `{<id field>: id}` when `del` takes the id field, `{ id }` otherwise (CONTRACT §3). */
    delPayloadOf: (row: Row): Payload => (delShape && config.id in delShape ? { [config.id]: idOf(row) } : { id: idOf(row) }),
  };
};

/** What generic screens (ResourceTable) use of any resource. */
export interface ResourceModel<Row> {
  labels: LabelArea;
  list: AnyDef;
  add?: AnyDef | undefined;
  set?: AnyDef | undefined;
  del?: AnyDef | undefined;
  id: string;
  tree?: string | undefined;
  key: string;
  useList(params: Payload, enabled?: boolean): UseQueryResult<ListResult<Row>>;
  useCommand(kind: 'add' | 'set' | 'del'): UseMutationResult<unknown, Error, Payload>;
  idOf(row: Row): unknown;
  delPayloadOf(row: Row): Payload;
}

/** The rows of a resource: `RowOfResource<typeof userResource>`. */
export type RowOfResource<R> = R extends { idOf: (row: infer Row) => unknown } ? Row : never;
