import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { type APPDATA_API, ExportState, type JOBS_API, type JobRow } from '@iot/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Modal, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogProps } from '../../components/dialog-button';
import { call, showApiError } from '../../lib/api';
import { downloadHref } from '../../lib/downloads';
import { toastSuccess } from '../../lib/feedback';
import { formatTime } from '../../lib/format';
import type { LabelKey } from '../../lib/labels';
import { listKey, listQueryOptions, type Payload } from '../../lib/resource';

/**
 * Range exports on the job runner, for any screen: the jobs table (state, progress, download)
 * and a dialog that starts one over chosen days (at most three months, SPEC §5) with the
 * screen's filters, opened through a DialogButton: device registrations (product/device),
 * device states, device and service logs (applist/log_list).
 */
const POLL_MS = 1000;
/** SPEC §5: an export covers at most three months. */
const EXPORT_MAX_MONTHS = 3;
const stateColor: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error' };

/** A job's file, as a link a browser can follow (the ticket stands in for the token). */
export const jobFileHref = (job: Pick<JobRow, 'download_path' | 'download_ticket'>) =>
  job.download_path ? downloadHref(job.download_path, { ticket: job.download_ticket }) : '';

/** Why a job failed, in words (a code this console does not know yet reads as a failure). */
export const jobErrorText = (t: TFunction, error: string) =>
  t(`jobs.errors.${error || 'internal'}`, { defaultValue: t('jobs.errors.internal') });

/** An export kind: the command that starts one and the list of its jobs. */
export interface RangeExportDefs {
  add: typeof APPDATA_API.logExportAdd | typeof JOBS_API.devExportAdd | typeof JOBS_API.stateExportAdd;
  list: typeof APPDATA_API.logExportList | typeof JOBS_API.devExportList | typeof JOBS_API.stateExportList;
}

/** Export jobs of a list with state and download (polled while one is exporting). */
export const ExportJobsTable = ({ list, label }: { list: RangeExportDefs['list']; label: LabelKey }) => {
  const { t } = useTranslation();
  const jobs = useQuery({
    ...listQueryOptions(list, { page_size: 10 }),
    refetchInterval: (q) => (q.state.data?.rows.some((r) => r.state === ExportState.EXPORTING) ? POLL_MS : false),
  });
  return (
    <Table<JobRow>
      aria-label={t(label)}
      rowKey="id"
      size="small"
      loading={jobs.isLoading}
      dataSource={jobs.data?.rows ?? []}
      pagination={false}
      columns={[
        { key: 'id', dataIndex: 'id', title: t('jobs.fields.id') },
        { key: 'gmt_create', dataIndex: 'gmt_create', title: t('jobs.fields.gmt_create'), render: (v: number) => formatTime(v) },
        {
          key: 'state',
          dataIndex: 'state',
          title: t('jobs.fields.state'),
          render: (v: number, row) => (
            <Tag color={stateColor[v]}>
              {t(`jobs.export_states.${v}`)}
              {v === ExportState.EXPORTING && row.total > 0 ? ` ${Math.floor((row.done * 100) / row.total)}%` : ''}
            </Tag>
          ),
        },
        { key: 'ok_count', dataIndex: 'ok_count', title: t('jobs.fields.rows') },
        {
          key: 'download',
          title: t('common.actions'),
          render: (_: unknown, row) =>
            row.state === ExportState.SUCCESS && row.download_path ? (
              <Typography.Link href={jobFileHref(row)}>
                <DownloadOutlined /> {t('jobs.download')}
              </Typography.Link>
            ) : row.state === ExportState.FAILURE ? (
              <Typography.Text type="danger">{jobErrorText(t, row.error)}</Typography.Text>
            ) : null,
        },
      ]}
    />
  );
};

export interface RangeExportLabels {
  title: LabelKey;
  hint: LabelKey;
  range: LabelKey;
  start: LabelKey;
  started: LabelKey;
  list: LabelKey;
}

/**
 * The export dialog: days (≤ 3 months) plus the list's filters, then the jobs. Opened by a
 * DialogButton (components/dialog-button.tsx), so a page loads it on the first click.
 */
export const RangeExportDialog = ({
  filters,
  defs,
  labels,
  open,
  onClose,
}: { filters: Payload; defs: RangeExportDefs; labels: RangeExportLabels } & DialogProps) => {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [picking, setPicking] = useState<Dayjs | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    if (!range) return;
    setBusy(true);
    try {
      const { gmt_start: _s, gmt_end: _e, page_no: _p, page_size: _z, ...rest } = filters;
      await call(defs.add, { ...rest, gmt_start: range[0].startOf('day').unix(), gmt_end: range[1].add(1, 'day').startOf('day').unix() });
      toastSuccess(t(labels.started));
      await qc.invalidateQueries({ queryKey: [listKey(defs.list)] });
    } catch (err) {
      showApiError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t(labels.title)} onCancel={onClose} footer={null} width={720}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t(labels.hint)}</Typography.Text>
        <Space wrap>
          <DatePicker.RangePicker
            aria-label={t(labels.range)}
            value={range}
            onCalendarChange={(v) => setPicking(v?.[0] ?? v?.[1] ?? null)}
            onChange={(v) => setRange(v?.[0] && v[1] ? [v[0], v[1]] : null)}
            disabledDate={(d) =>
              d.isAfter(dayjs().endOf('day')) ||
              (picking !== null &&
                (d.isAfter(picking.add(EXPORT_MAX_MONTHS, 'month')) || d.isBefore(picking.subtract(EXPORT_MAX_MONTHS, 'month'))))
            }
          />
          <Button type="primary" icon={<ExportOutlined />} disabled={!range} loading={busy} onClick={() => void start()}>
            {t(labels.start)}
          </Button>
        </Space>
        <ExportJobsTable list={defs.list} label={labels.list} />
      </Space>
    </Modal>
  );
};
