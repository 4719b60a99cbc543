import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { PAGE_SIZE_DEFAULT } from '@iot/contract';
import { Button, Form, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnType, TablePaginationConfig, TableProps } from 'antd/es/table';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import { type Key, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../lib/access';
import type { AnyDef } from '../lib/api';
import { toastSuccess } from '../lib/feedback';
import { formatTime } from '../lib/format';
import { type FieldKey, fieldLabel, type LabelArea, type LabelGroup, type LabelKey, valueLabel } from '../lib/labels';
import { pagerProps } from '../lib/pagination';
import type { Payload, ResourceModel, RowOfResource } from '../lib/resource';
import { useIsMobile } from '../lib/use-mobile';
import type { Fields } from './field-config';
import { FilterBar } from './filter-bar';
import { formModel } from './form-model';
import { ModalForm } from './modal-form';
import { Panel } from './panel';

/**
 * A column as data. `key` is the row field; the title is `<area>.fields.<key>` unless `title`
 * names another label. `enumLabels` renders `t(<enumLabels>.<value>)`, `time` renders unix
 * seconds. `sorter` sorts on the server: `true` sends the column key as `order_by`, a string
 * sends that sort field instead.
 */
export type ColumnConfig<Row, A extends LabelArea> = Omit<ColumnType<Row>, 'title' | 'key' | 'dataIndex' | 'sorter' | 'sortOrder'> & {
  enumLabels?: LabelGroup;
  /** With `enumLabels`: show the label as a Tag of this color per value. */
  tagColors?: Record<string, string>;
  time?: boolean;
  sorter?: boolean | string;
} & ({ key: `${FieldKey<A>}`; title?: LabelKey } | { key: string; title: LabelKey });

/** The columns of a resource's table: `Columns<typeof userResource>`. */
export type Columns<R extends { labels: LabelArea }> = ColumnConfig<RowOfResource<R>, R['labels']>[];

/** Server-side order of a list (docs/api.md: `order_by`, `order`). */
export interface ListSort {
  field: string;
  order: 'asc' | 'desc';
}

export interface RowAction<Row> {
  key: string;
  label: LabelKey;
  icon?: ReactNode;
  danger?: boolean;
  /** A confirmation question. */
  confirm?: LabelKey;
  visible?: (row: Row) => boolean;
  onClick: (row: Row) => unknown;
}

export interface ResourceTableProps<Row extends object, A extends LabelArea> {
  /** What the table lists and changes; its labels are `<resource.labels>.fields.<name>`. */
  resource: ResourceModel<Row> & { labels: A };
  columns: ColumnConfig<Row, A>[];
  /** Filter bar above the table; values become list payload fields (checked by the list's schema). */
  filters?: Fields<A>;
  /** Add/edit form, checked by the add and set schemas; without it there is no add or edit. */
  form?: Fields<A>;
  /** Fixed list parameters (e.g. `{ tree: 1 }`). */
  baseParams?: Payload;
  /** Extra conditions on the commands the resource declares and the user's menus allow. */
  canAdd?: boolean;
  canEdit?: (row: Row) => boolean;
  canDelete?: (row: Row) => boolean;
  /** Extra values of the add form (e.g. the parent company). */
  addValues?: Payload | undefined;
  /** Sent with every add, not shown (e.g. the kind of a resource); also picks the add schema's branch. */
  addFixed?: Payload;
  /** Last touch on a payload before it is checked and sent (the id field is added for set); may be async (password encoding). */
  toPayload?: (payload: Payload, mode: 'add' | 'edit', row?: Row) => Payload | Promise<Payload>;
  /** Edit: load the full record before the dialog opens (e.g. a `get` call); default the row itself. */
  loadEditValues?: (row: Row) => Promise<Payload>;
  /** After every successful add, set or delete (e.g. refresh the sidebar). */
  onMutated?: () => unknown;
  /** After a successful add, with its answer (e.g. a key the server shows only once). */
  onAdded?: (answer: unknown) => unknown;
  /** Filters applied on the first load (e.g. from the address); also shown in the filter bar. */
  initialFilters?: Payload | undefined;
  /** Last touch on the filter payload (e.g. SPEC §5: user_state -1 → 0). */
  toFilterPayload?: (payload: Payload) => Payload;
  /** Extra row rendering (expandable details). */
  expandable?: TableProps<Row>['expandable'];
  rowActions?: RowAction<Row>[];
  /** Dialog titles (default common.add / common.edit) and the OK button (default common.save). */
  titles?: { add?: LabelKey; edit?: LabelKey; ok?: LabelKey };
  formColumns?: 1 | 2;
  /** Extra toolbar content; a function gets the applied filter payload and the count (bulk actions, exports). */
  toolbar?: ReactNode | ((ctx: { filters: Payload; count: number }) => ReactNode);
  /** Selectable rows (bulk actions). */
  rowSelection?: TableProps<Row>['rowSelection'];
  /** Accessible name of the table region; default `<area>.title`. */
  label?: LabelKey;
}

const toSortOrder = (sort: ListSort | null, field: string): SortOrder =>
  sort?.field === field ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;

/** Tree rows: drop empty child lists (no expand icon on leaves); collect the keys of parents. */
const pruneTree = <Row extends object>(rows: Row[], childrenField: string, rowKey: string, parents: Key[]): Row[] =>
  rows.map((row) => {
    const children = (row as Payload)[childrenField];
    if (!Array.isArray(children)) return row;
    if (children.length === 0) {
      const { [childrenField]: _empty, ...rest } = row as Payload;
      return rest as Row;
    }
    parents.push((row as Payload)[rowKey] as Key);
    return { ...row, [childrenField]: pruneTree(children as Row[], childrenField, rowKey, parents) };
  });

/** May the user call this entry: its menu keys (or super / any signed-in user). */
const useMayCall = () => {
  const access = useAccess();
  return (api: AnyDef | undefined): boolean => {
    if (!api) return false;
    if (access.isSuper) return true;
    if (api.access === 'super' || api.access === 'service') return false;
    return typeof api.access === 'string' || api.access.some((key) => access.can(key));
  };
};

/**
 * The paged, filterable table every list screen is built from (SPEC §2): filter bar, toolbar
 * with add/refresh and count, row edit/delete with confirmation, add/edit ModalForm, refetch
 * after every mutation. Add, edit and delete exist when the resource declares the command and
 * the user's menus allow it; the form's rules are the command's schema.
 */
export function ResourceTable<Row extends object, A extends LabelArea>(props: ResourceTableProps<Row, A>) {
  const { resource, columns, filters, form, baseParams, rowActions = [] } = props;
  const area = resource.labels;
  const paged = !resource.tree;
  const mayCall = useMayCall();
  const canAdd = !!form && mayCall(resource.add) && props.canAdd !== false;
  const mayEdit = !!form && mayCall(resource.set);
  const mayDelete = mayCall(resource.del);
  const canEdit = (row: Row) => mayEdit && (props.canEdit?.(row) ?? true);
  const canDelete = (row: Row) => mayDelete && (props.canDelete?.(row) ?? true);
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [filterForm] = Form.useForm<Payload>();
  const filterModel = useMemo(
    // Values a filter offers default to those the resource takes (its add schema's).
    () => formModel({ fields: filters ?? [], area, mode: 'filter', schema: resource.list.input, addSchema: resource.add?.input }),
    [filters, area, resource.list, resource.add],
  );
  const filterPayloadOf = (values: Payload) => {
    const payload = filterModel.payloadOf(values);
    return props.toFilterPayload ? props.toFilterPayload(payload) : payload;
  };
  // Only the first render's filters count (the address at mount).
  const [initialFilterForm] = useState<Payload>(() => filterModel.initialValues(props.initialFilters));
  const [filterValues, setFilterValues] = useState<Payload>(() => filterPayloadOf(initialFilterForm));
  const [page, setPage] = useState({ no: 1, size: PAGE_SIZE_DEFAULT });
  const [sort, setSort] = useState<ListSort | null>(null);
  const [editing, setEditing] = useState<{ mode: 'add' | 'edit'; row?: Row; values?: Payload } | null>(null);
  const [collapsed, setCollapsed] = useState<Set<Key>>(new Set());
  const [loadingRow, setLoadingRow] = useState(false);
  const rowKey = resource.id;
  const childrenField = resource.tree ?? 'children';

  const params = useMemo(
    () => ({
      ...baseParams,
      ...filterValues,
      ...(sort ? { order_by: sort.field, order: sort.order } : {}),
      ...(paged ? { page_no: page.no, page_size: page.size } : {}),
    }),
    [baseParams, filterValues, sort, paged, page],
  );
  const list = resource.useList(params);
  const add = resource.useCommand('add');
  const set = resource.useCommand('set');
  const del = resource.useCommand('del');

  const count = list.data?.count ?? 0;
  // Tree lists start fully expanded; only what the user collapses stays collapsed.
  const { rows, parentKeys } = useMemo(() => {
    const parents: Key[] = [];
    const data = list.data?.rows ?? [];
    return { rows: paged ? data : pruneTree(data, childrenField, rowKey, parents), parentKeys: parents };
  }, [list.data, paged, childrenField, rowKey]);
  const expandedRowKeys = useMemo(() => parentKeys.filter((k) => !collapsed.has(k)), [parentKeys, collapsed]);

  const mutated = async () => {
    await props.onMutated?.();
  };

  const openEdit = async (row: Row) => {
    if (!props.loadEditValues) {
      setEditing({ mode: 'edit', row });
      return;
    }
    setLoadingRow(true);
    try {
      setEditing({ mode: 'edit', row, values: await props.loadEditValues(row) });
    } finally {
      setLoadingRow(false);
    }
  };

  const tableColumns = ((): ColumnType<Row>[] => {
    const cols: ColumnType<Row>[] = columns.map(({ key, title, enumLabels, tagColors, time, sorter, render, ...rest }) => ({
      ...rest,
      key,
      dataIndex: key,
      title: t(title ?? fieldLabel(area, key)),
      sorter: !!sorter,
      sortOrder: sorter ? toSortOrder(sort, sorter === true ? key : sorter) : undefined,
      sortDirections: ['ascend', 'descend'],
      render:
        render ??
        (enumLabels
          ? (v: unknown) => {
              if (v === null || v === undefined || v === '') return '';
              const label = t(valueLabel(enumLabels, v));
              return tagColors ? <Tag color={tagColors[String(v)]}>{label}</Tag> : label;
            }
          : time
            ? (v: unknown) => formatTime(v)
            : undefined),
    }));
    const hasActions = mayEdit || mayDelete || rowActions.length > 0;
    if (hasActions) {
      cols.push({
        key: '__actions',
        title: t('common.actions'),
        fixed: isMobile ? undefined : 'right',
        render: (_: unknown, row: Row) => (
          <Space size={4} wrap>
            {rowActions
              .filter((a) => !a.visible || a.visible(row))
              .map((a) =>
                a.confirm ? (
                  <Popconfirm
                    key={a.key}
                    title={t(a.confirm)}
                    okText={t('common.ok')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => a.onClick(row)}
                  >
                    <Button size="small" type="link" danger={a.danger} icon={a.icon}>
                      {t(a.label)}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button key={a.key} size="small" type="link" danger={a.danger} icon={a.icon} onClick={() => a.onClick(row)}>
                    {t(a.label)}
                  </Button>
                ),
              )}
            {canEdit(row) && (
              <Button size="small" type="link" icon={<EditOutlined />} loading={loadingRow} onClick={() => openEdit(row)}>
                {t('common.edit')}
              </Button>
            )}
            {canDelete(row) && (
              <Popconfirm
                title={t('common.delete_confirm')}
                okText={t('common.delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={async () => {
                  await del.mutateAsync(resource.delPayloadOf(row));
                  toastSuccess(t('common.del_success'));
                  await mutated();
                }}
              >
                <Button size="small" type="link" danger icon={<DeleteOutlined />}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ),
      });
    }
    return cols;
  })();

  const onTableChange = (pagination: TablePaginationConfig, _f: unknown, sorter: SorterResult<Row> | SorterResult<Row>[]) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const config = columns.find((c) => c.key === one?.columnKey);
    const field = config?.sorter ? (config.sorter === true ? config.key : config.sorter) : null;
    const next: ListSort | null = field && one?.order ? { field, order: one.order === 'ascend' ? 'asc' : 'desc' } : null;
    if (next?.field !== sort?.field || next?.order !== sort?.order) {
      setSort(next);
      setPage((p) => ({ ...p, no: 1 }));
      return;
    }
    setPage({ no: pagination.current ?? 1, size: pagination.pageSize ?? PAGE_SIZE_DEFAULT });
  };

  const applyFilters = (values: Payload) => {
    setFilterValues(filterPayloadOf(values));
    setPage((p) => ({ ...p, no: 1 }));
  };

  /** The page's last touch, then the id of the row for set. */
  const prepare = async (payload: Payload): Promise<Payload> => {
    const mode = editing?.mode ?? 'add';
    const row = editing?.row;
    const body = props.toPayload ? await props.toPayload(payload, mode, row) : payload;
    return mode === 'edit' && row ? { ...body, [resource.id]: resource.idOf(row) } : body;
  };

  const submitForm = async (body: Payload) => {
    if (editing?.mode === 'edit') {
      await set.mutateAsync(body);
      toastSuccess(t('common.set_success'));
    } else {
      const answer = await add.mutateAsync(body);
      toastSuccess(t('common.add_success'));
      await props.onAdded?.(answer);
      // A new child must be visible: re-expand everything.
      setCollapsed(new Set());
    }
    await mutated();
  };

  const label = t(props.label ?? `${area}.title`, { defaultValue: t('common.table') });

  return (
    <Panel variant="borderless" bodyStyle={{ padding: isMobile ? 12 : 24 }}>
      {filters && filters.length > 0 && (
        <FilterBar
          form={filterForm}
          model={filterModel}
          name={`${area}-filters`}
          initialValues={initialFilterForm}
          onSearch={applyFilters}
        />
      )}
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary" aria-live="polite">
          {t('common.total', { count })}
        </Typography.Text>
        <Space wrap>
          {typeof props.toolbar === 'function' ? props.toolbar({ filters: filterValues, count }) : props.toolbar}
          <Button icon={<ReloadOutlined />} aria-label={t('common.refresh')} onClick={() => list.refetch()} />
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'add' })}>
              {t('common.add')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<Row>
        aria-label={label}
        rowKey={rowKey}
        rowSelection={props.rowSelection}
        columns={tableColumns}
        dataSource={rows}
        expandable={
          paged
            ? props.expandable
            : {
                childrenColumnName: childrenField,
                expandedRowKeys,
                onExpand: (expanded, row) => {
                  const key = (row as Payload)[rowKey] as Key;
                  setCollapsed((prev) => {
                    const next = new Set(prev);
                    if (expanded) next.delete(key);
                    else next.add(key);
                    return next;
                  });
                },
                ...props.expandable,
              }
        }
        loading={list.isFetching}
        size={isMobile ? 'small' : 'middle'}
        scroll={{ x: 'max-content' }}
        onChange={onTableChange}
        // Unpaged (tree) lists are paged here, by their top-level rows.
        pagination={{
          current: page.no,
          pageSize: page.size,
          total: paged ? count : rows.length,
          hideOnSinglePage: !paged,
          showSizeChanger: !isMobile,
          size: isMobile ? 'small' : undefined,
          showTotal: isMobile || !paged ? undefined : (total: number) => t('common.total', { count: total }),
          ...pagerProps(page.no, page.size, paged ? count : rows.length, isMobile),
        }}
      />
      {form && (
        <ModalForm
          open={editing !== null}
          mode={editing?.mode ?? 'add'}
          title={editing?.mode === 'edit' ? (props.titles?.edit ?? 'common.edit') : (props.titles?.add ?? 'common.add')}
          okText={props.titles?.ok}
          fields={form}
          area={area}
          schema={editing?.mode === 'edit' ? resource.set?.input : resource.add?.input}
          addSchema={resource.add?.input}
          fixed={editing?.mode === 'edit' ? undefined : props.addFixed}
          values={editing?.mode === 'edit' ? (editing.values ?? (editing.row as Payload | undefined)) : props.addValues}
          prepare={prepare}
          onSubmit={submitForm}
          onClose={() => setEditing(null)}
          columns={props.formColumns}
        />
      )}
    </Panel>
  );
}
