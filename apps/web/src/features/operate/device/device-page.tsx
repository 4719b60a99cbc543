import { DEVICE_API, DEVICE_EVENT_TYPES, DEVICE_STATE_API } from '@iot/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Descriptions, Empty, Input, Space, Table, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Fields, valueOptions } from '../../../components/field-config';
import { Panel } from '../../../components/panel';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { formatTime } from '../../../lib/format';
import type { AreaName } from '../../../lib/i18n';
import { dataQueryOptions, defineResource, listKey } from '../../../lib/resource';
import { useLiveDeviceState } from '../../../shared/device-state/live-state';
import { stateRows } from '../../../shared/device-state/state-rows';
import { LiveBadge, OnlineTag } from '../../../shared/device-state/state-view';
import { UpgradeTable } from '../../../shared/ota/upgrade-table';

/**
 * One device in depth (operate/device, `?uid=`): registration info (v2/iot/web/uid/info/get),
 * live state and properties (state list), state history, firmware upgrades (v2/ota/admin/product/ver/devices).
 * Its orders join this page with the mall.
 */
const history = defineResource({ labels: 'device_state.history', list: DEVICE_STATE_API.stateHistory, id: 'id' });

const historyFilters: Fields<'device_state.history'> = [
  {
    name: 'type',
    widget: 'select',
    options: valueOptions([...DEVICE_EVENT_TYPES.filter((e) => e !== 'heartbeat'), 'timeout'], 'device_state.event_types'),
  },
  { name: 'time_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
];

/** An event's details in the console's language: field names, NAT types and wake states by name, times formatted. */
const EventDetail = ({ detail }: { detail: Record<string, unknown> }) => {
  const { t } = useTranslation();
  const value = (k: string, v: unknown) => {
    if (k === 'network_type' && typeof v === 'number') return t(`device_state.network_types.${v}`, { defaultValue: String(v) });
    if (k === 'wake_state' && typeof v === 'number') return t(`device_state.wake_states.${v}`, { defaultValue: String(v) });
    if (k === 'last_seen' && typeof v === 'number') return formatTime(v);
    if (k === 'success' && typeof v === 'number')
      return t(v === 1 ? 'firmware.upgrade_states.succeeded' : 'firmware.upgrade_states.failed');
    return typeof v === 'string' ? v : JSON.stringify(v);
  };
  return (
    <>
      {Object.entries(detail)
        .map(([k, v]) => `${t(`device_state.fields.${k}`, { defaultValue: k })}: ${value(k, v)}`)
        .join(', ')}
    </>
  );
};

const historyColumns: Columns<typeof history> = [
  { key: 'ts', time: true },
  { key: 'type', enumLabels: 'device_state.event_types' },
  { key: 'detail', render: (d: Record<string, unknown>) => <EventDetail detail={d} /> },
];

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['device_state', 'firmware'];

export default function DevicePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const uid = (search.get('uid') ?? '').trim();
  const { status, changed } = useLiveDeviceState();
  const qc = useQueryClient();

  const info = useQuery({ ...dataQueryOptions(DEVICE_API.deviceInfo, { uid }), enabled: uid !== '', retry: false });
  const states = stateRows.useList({ uid, page_size: 10 }, uid !== '');
  const state = states.data?.rows.find((r) => r.uid.toUpperCase() === uid.toUpperCase());
  const isChanged = state ? changed.has(state.device_id) : false;
  const historyParams = useMemo(() => ({ uid }), [uid]);

  // A live change of this device adds history rows: refresh the history table.
  useEffect(() => {
    if (isChanged) void qc.invalidateQueries({ queryKey: [listKey(DEVICE_STATE_API.stateHistory)] });
  }, [isChanged, qc]);

  const properties = Object.entries(state?.properties ?? {});
  const d = info.data;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Panel variant="borderless">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Input.Search
            aria-label={t('device_state.fields.uid')}
            placeholder={t('device_state.detail.uid_placeholder')}
            defaultValue={uid}
            enterButton={t('common.search')}
            allowClear
            style={{ maxWidth: 420 }}
            onSearch={(value) =>
              setSearch((prev) => {
                const next = new URLSearchParams(prev);
                if (value.trim()) next.set('uid', value.trim());
                else next.delete('uid');
                return next;
              })
            }
          />
          <LiveBadge status={status} />
        </Space>
      </Panel>
      {!uid ? (
        <Panel variant="borderless">
          <Empty description={t('device_state.detail.choose')} />
        </Panel>
      ) : !state && !states.isFetching ? (
        <Panel variant="borderless">
          <Empty description={t('device_state.detail.not_found', { uid })} />
        </Panel>
      ) : (
        <>
          <Panel variant="borderless" title={t('device_state.detail.info')} loading={!state}>
            <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
              <Descriptions.Item label={t('device_state.fields.uid')}>{state?.uid}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.mac')}>{show(d?.mac ?? state?.mac)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.pk')}>
                {show(state?.pk)}
                {d?.product_name ? ` (${d.product_name})` : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.comp_name')}>{show(state?.comp_name)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.detail.gmt_create')}>{d ? formatTime(d.gmt_create) : '—'}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.detail.dev_key')}>{show(d?.dev_key)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.online')}>
                {state && <OnlineTag row={state} changed={isChanged} />}
              </Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.network_type')}>
                {state ? t(`device_state.network_types.${state.network_type}`) : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.active')}>
                {state ? t(`device_state.active_states.${state.active}`) : ''}
                {state?.gmt_active ? ` (${formatTime(state.gmt_active)})` : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.last_online')}>{show(formatTime(state?.last_online))}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.last_offline')}>{show(formatTime(state?.last_offline))}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.last_seen')}>{show(formatTime(state?.last_seen))}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.vendor')}>{show(state?.vendor)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.protocol')}>{show(state?.protocol)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.country')}>{show(state?.country)}</Descriptions.Item>
              <Descriptions.Item label={t('device_state.fields.wake_state')}>
                {state ? t(`device_state.wake_states.${state.wake_state}`) : ''}
              </Descriptions.Item>
            </Descriptions>
          </Panel>
          <Panel variant="borderless" title={t('device_state.detail.properties')}>
            {properties.length === 0 ? (
              <Typography.Text type="secondary">{t('device_state.detail.no_properties')}</Typography.Text>
            ) : (
              <Table
                aria-label={t('device_state.detail.properties')}
                size="small"
                pagination={false}
                rowKey="key"
                dataSource={properties.map(([key, value]) => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) }))}
                columns={[
                  { key: 'key', dataIndex: 'key', title: t('device_state.detail.property') },
                  { key: 'value', dataIndex: 'value', title: t('device_state.detail.value') },
                ]}
              />
            )}
          </Panel>
          <Typography.Title level={5} style={{ margin: '8px 0 0' }}>
            {t('device_state.detail.history')}
          </Typography.Title>
          <ResourceTable
            key={uid}
            resource={history}
            label="device_state.detail.history"
            columns={historyColumns}
            filters={historyFilters}
            baseParams={historyParams}
          />
          <Typography.Title level={5} style={{ margin: '8px 0 0' }}>
            {t('firmware.device_history')}
          </Typography.Title>
          <UpgradeTable key={`upgrades-${uid}`} params={historyParams} of="device" label="firmware.device_history" />
        </>
      )}
    </Space>
  );
}
