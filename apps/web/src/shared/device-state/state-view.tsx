import { type DeviceStateRow, NETWORK_TYPES, OFFLINE_REASONS } from '@iot/contract';
import { Badge, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { valueOptions } from '../../components/field-config';
import { formatTime } from '../../lib/format';
import type { LiveStatus } from './live-state';

export const NETWORK_OPTIONS = valueOptions(NETWORK_TYPES, 'device_state.network_types');
export const OFFLINE_REASON_OPTIONS = valueOptions(OFFLINE_REASONS, 'device_state.offline_reasons');
export const ONLINE_OPTIONS = valueOptions([1, 0], 'device_state.online_states');
export const ACTIVE_OPTIONS = valueOptions([1, 0], 'device_state.active_states');

type StateFields = Pick<DeviceStateRow, 'online' | 'offline_reason' | 'last_seen' | 'last_offline'>;

/** Online or offline, and why offline (never seen, explicit offline, heartbeat timeout) in the tag and its tooltip. */
export const OnlineTag = ({ row, changed }: { row: StateFields; changed?: boolean }) => {
  const { t } = useTranslation();
  const tag =
    row.online === 1 ? (
      <Tag color="green">{t('device_state.online_states.1')}</Tag>
    ) : (
      <Tooltip
        title={t('device_state.offline_tooltip', {
          reason: t(`device_state.offline_reasons.${row.offline_reason}`),
          time: formatTime(row.last_offline) || '—',
        })}
      >
        <Tag color={row.offline_reason === 0 ? 'default' : 'red'}>
          {t('device_state.online_states.0')} · {t(`device_state.offline_reasons.${row.offline_reason}`)}
        </Tag>
      </Tooltip>
    );
  return (
    <span data-changed={changed ? 'true' : undefined}>
      {tag}
      {changed && <Tag color="gold">{t('device_state.changed')}</Tag>}
    </span>
  );
};

export const LiveBadge = ({ status }: { status: LiveStatus }) => {
  const { t } = useTranslation();
  return (
    <Badge
      status={status === 'live' ? 'processing' : status === 'connecting' ? 'default' : 'warning'}
      text={t(`device_state.live.${status}`)}
    />
  );
};
