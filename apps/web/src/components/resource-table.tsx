import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { PAGE_SIZE_DEFAULT } from '@iot/contract';
import { Button, Card, Form, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../lib/feedback';
import { formatTime } from '../lib/format';
import type { Payload, Resource } from '../lib/resource';
import { useIsMobile } from '../lib/use-mobile';
import type { FieldConfig } from './field-config';
import { FormField } from './form-field';
import { toPayload } from './form-values';
import { ModalForm } from './modal-form';

/**
 * A column as data. `key` is the row field; the title defaults to
 * `<i18nPrefix>.fields.<key>`. `enumPrefix` renders `t(<enumPrefix>.<value>)`,
 * `time` renders unix seconds, `sorter: true` sorts the rows on the page.
 */
export interface ColumnConfig<Row> extends Omit<ColumnType<Row>, 'title' | 'key' | 'dataIndex' | 'sorter'> {
  key: string;
  title?: string;
  enumPrefix?: string;
  time?: boolean;
  sorter?: boolean | ColumnType<Row>['sorter'];
}

export interface RowAction<Row> {
  key: string;
  /** i18n key. */
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  /** i18n key of a confirmation question. */
  confirm?: string;
  visible?: (row: Row) => boolean;
  onClick: (row: Row) => unknown;
}

export interface ResourceTableProps<Row extends object> {
  resource: Resource<Row>;
  i18nPrefix: string;
  columns: ColumnConfig<Row>[];
  /** Filter bar above the table; values become list payload fields. */
  filters?: FieldConfig[];
  /** Add/edit form; without it there is no add or edit. */
  form?: FieldConfig[];
  /** Fixed list parameters (e.g. `{ tree: 1 }`). */
  baseParams?: Payload;
  /** false: one unpaged answer (tree lists). */
  paged?: boolean;
  canAdd?: boolean;
  canEdit?: boolean | ((row: Row) => boolean);
  canDelete?: boolean | ((row: Row) => boolean);
  /** Extra values of the add form (e.g. the parent company). */
  addValues?: Payload;
  /** Last touch on a payload before add/set (the id field is added for set). */
  toPayload?: (payload: Payload, mode: 'add' | 'edit', row?: Row) => Payload;
  rowActions?: RowAction<Row>[];
  /** i18n keys of the dialog titles; default common.add / common.edit. */
  titles?: { add?: string; edit?: string };
  formColumns?: 1 | 2;
  toolbar?: ReactNode;
  /** i18n key: accessible name of the table region. */
  label?: string;
  rowKey?: keyof Row & string;
}

const allowed = <Row,>(rule: boolean | ((row: Row) => boolean), row: Row) => (typeof rule === 'function' ? rule(row) : rule);

const compare = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? ''));

/**
 * The paged, filterable table every list screen is built from (SPEC §2): filter
 * bar, toolbar with add/refresh and count, row edit/delete with confirmation,
 * add/edit ModalForm, refetch after every mutation.
 */
export function ResourceTable<Row extends object>(props: ResourceTableProps<Row>) {
  const {
    resource,
    i18nPrefix,
    columns,
    filters,
    form,
    baseParams,
    paged = true,
    canAdd = !!form && !!resource.add,
    canEdit = !!form && !!resource.set,
    canDelete = !!resource.del,
    rowActions = [],
  } = props;
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [filterForm] = Form.useForm<Payload>();
  const [filterValues, setFilterValues] = useState<Payload>({});
  const [page, setPage] = useState({ no: 1, size: PAGE_SIZE_DEFAULT });
  const [editing, setEditing] = useState<{ mode: 'add' | 'edit'; row?: Row } | null>(null);

  const params = useMemo(
    () => ({ ...baseParams, ...filterValues, ...(paged ? { page_no: page.no, page_size: page.size } : {}) }),
    [baseParams, filterValues, paged, page],
  );
  const list = resource.useList(params);
  const add = resource.useAdd();
  const set = resource.useSet();
  const del = resource.useDel();

  const rows = list.data?.rows ?? [];
  const count = list.data?.count ?? 0;

  const tableColumns = useMemo<ColumnType<Row>[]>(() => {
    const cols: ColumnType<Row>[] = columns.map(({ key, title, enumPrefix, time, sorter, render, ...rest }) => ({
      ...rest,
      key,
      dataIndex: key,
      title: t(title ?? `${i18nPrefix}.fields.${key}`),
      sorter: sorter === true ? (a: Row, b: Row) => compare((a as Payload)[key], (b as Payload)[key]) : sorter,
      render:
        render ??
        (enumPrefix
          ? (v: unknown) => (v === null || v === undefined || v === '' ? '' : t(`${enumPrefix}.${v}`))
          : time
            ? (v: unknown) => formatTime(v)
            : undefined),
    }));
    const hasActions = canEdit !== false || canDelete !== false || rowActions.length > 0;
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
            {allowed(canEdit, row) && (
              <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ mode: 'edit', row })}>
                {t('common.edit')}
              </Button>
            )}
            {allowed(canDelete, row) && (
              <Popconfirm
                title={t('common.delete_confirm')}
                okText={t('common.delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={async () => {
                  await del.mutateAsync(resource.delPayloadOf(row));
                  toastSuccess(t('common.del_success'));
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
  }, [columns, t, i18nPrefix, canEdit, canDelete, rowActions, isMobile, del, resource]);

  const onTableChange = (pagination: TablePaginationConfig, _f: unknown, _s: SorterResult<Row> | SorterResult<Row>[]) => {
    if (!paged) return;
    setPage({ no: pagination.current ?? 1, size: pagination.pageSize ?? PAGE_SIZE_DEFAULT });
  };

  const applyFilters = (values: Payload) => {
    setFilterValues(filters ? toPayload(filters, values) : {});
    setPage((p) => ({ ...p, no: 1 }));
  };

  const submitForm = async (payload: Payload) => {
    const mode = editing?.mode ?? 'add';
    const row = editing?.row;
    const body = props.toPayload ? props.toPayload(payload, mode, row) : payload;
    if (mode === 'edit' && row) {
      await set.mutateAsync({ ...body, [resource.idField]: resource.idOf(row) });
      toastSuccess(t('common.set_success'));
    } else {
      await add.mutateAsync(body);
      toastSuccess(t('common.add_success'));
    }
  };

  const label = t(props.label ?? `${i18nPrefix}.title`, { defaultValue: t('common.table') });

  return (
    <Card variant="borderless" styles={{ body: { padding: isMobile ? 12 : 24 } }}>
      {filters && filters.length > 0 && (
        <Form
          form={filterForm}
          layout={isMobile ? 'vertical' : 'inline'}
          name={`${i18nPrefix}-filters`}
          aria-label={t('common.filters')}
          onFinish={applyFilters}
          style={{ marginBottom: 16, rowGap: 8 }}
        >
          {filters.map((f) => (
            <div key={f.name} style={{ minWidth: isMobile ? undefined : 200 }}>
              <FormField field={f} i18nPrefix={i18nPrefix} compact noRules />
            </div>
          ))}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {t('common.search')}
              </Button>
              <Button
                onClick={() => {
                  filterForm.resetFields();
                  applyFilters({});
                }}
              >
                {t('common.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary" aria-live="polite">
          {t('common.total', { count })}
        </Typography.Text>
        <Space wrap>
          {props.toolbar}
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
        rowKey={props.rowKey ?? resource.idField}
        columns={tableColumns}
        dataSource={rows}
        loading={list.isFetching}
        size={isMobile ? 'small' : 'middle'}
        scroll={{ x: 'max-content' }}
        onChange={onTableChange}
        pagination={
          paged
            ? {
                current: page.no,
                pageSize: page.size,
                total: count,
                showLessItems: isMobile,
                showSizeChanger: !isMobile,
                size: isMobile ? 'small' : undefined,
                showTotal: isMobile ? undefined : (total: number) => t('common.total', { count: total }),
              }
            : false
        }
      />
      {form && (
        <ModalForm
          open={editing !== null}
          mode={editing?.mode ?? 'add'}
          title={editing?.mode === 'edit' ? (props.titles?.edit ?? 'common.edit') : (props.titles?.add ?? 'common.add')}
          fields={form}
          i18nPrefix={i18nPrefix}
          values={editing?.mode === 'edit' ? (editing.row as Payload | undefined) : props.addValues}
          onSubmit={submitForm}
          onClose={() => setEditing(null)}
          columns={props.formColumns}
        />
      )}
    </Card>
  );
}
