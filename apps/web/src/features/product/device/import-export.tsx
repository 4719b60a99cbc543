import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { DEVICE_API, DOWNLOADS, ImportState, JOBS_API, type JobRow, type UploadOutput } from '@iot/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Form,
  type FormItemProps,
  Modal,
  Progress,
  Select,
  Space,
  Statistic,
  Tag,
  TreeSelect,
  Typography,
  Upload,
} from 'antd';
import type { UploadFile } from 'antd/es/upload/interface';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogProps } from '../../../components/dialog-button';
import type { FieldOption } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { ApiError, call, requestHeaders, showApiError } from '../../../lib/api';
import { downloadHref } from '../../../lib/downloads';
import { toastError, toastSuccess } from '../../../lib/feedback';
import { listKey, listQueryOptions, type Payload } from '../../../lib/resource';
import { ruleMessage } from '../../../lib/rule-messages';
import { jobErrorText, jobFileHref, RangeExportDialog } from '../../../shared/jobs/export-jobs';

const POLL_MS = 1000;
/** The device export's words (the shared range-export dialog). */
const EXPORT_LABELS = {
  title: 'jobs.export_title',
  hint: 'jobs.export_hint',
  range: 'jobs.range',
  start: 'jobs.start_export',
  started: 'jobs.export_started',
  list: 'jobs.export_list',
} as const;

const isXlsx = (name: string) => /\.xlsx$/i.test(name);

/** Sends the file to the upload endpoint (folder `imports`); answers its storage key. */
const uploadImportFile = async (file: File): Promise<UploadOutput> => {
  const form = new FormData();
  form.append('folder', 'imports');
  form.append('file', file, file.name);
  const res = await fetch('/api/v2/oss/upload?folder=imports', { method: 'POST', headers: requestHeaders(), body: form });
  const body = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: unknown } | null;
  // A refusal keeps its data: a 406 names the field (`file`) and its rule.
  if (body?.code !== 200 || !body.data) throw new ApiError(body?.code ?? res.status, body?.msg ?? res.statusText, body?.data ?? null);
  return body.data as UploadOutput;
};

/** The dialog's fields a refusal may name: the owner company, the default product, the file (uploaded, then named by key). */
type ImportField = 'comp_id' | 'pk' | 'file';
const IMPORT_FIELDS: Record<string, ImportField> = { comp_id: 'comp_id', pk: 'pk', file: 'file', file_key: 'file' };

/** A refused file in the words of the dialog: gone (upload again) or not an xlsx workbook. */
const refusalText = (t: TFunction, field: ImportField, rule: string) => {
  if (field === 'file' && rule === 'not_found') return t('jobs.errors.file_missing');
  if (field === 'file' && rule.startsWith('format:')) return t('jobs.only_xlsx');
  return ruleMessage(rule, t);
};

const importStateColor: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'success', 4: 'error' };

/** One import job as it runs: progress bar, state, then counts and the report. */
export const ImportProgress = ({ job }: { job: JobRow }) => {
  const { t } = useTranslation();
  const percent = job.total > 0 ? Math.floor((job.done * 100) / job.total) : job.state === ImportState.IMPORTED ? 100 : 0;
  const finished = job.state === ImportState.IMPORTED || job.state === ImportState.FAILED;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} aria-live="polite">
      <Space>
        <Typography.Text>{t('jobs.fields.state')}:</Typography.Text>
        <Tag color={importStateColor[job.state]} data-testid="import-state">
          {t(`jobs.import_states.${job.state}`)}
        </Tag>
        {job.resumed > 0 && !finished && <Tag color="warning">{t('jobs.resumed')}</Tag>}
      </Space>
      <Progress
        percent={percent}
        status={job.state === ImportState.FAILED ? 'exception' : finished ? 'success' : 'active'}
        aria-label={t('jobs.progress')}
      />
      <Typography.Text type="secondary">{t('jobs.rows_done', { done: job.done, total: job.total })}</Typography.Text>
      {job.state === ImportState.FAILED && <Alert type="error" title={jobErrorText(t, job.error)} />}
      {finished && (
        <Space size="large">
          <Statistic title={t('jobs.fields.ok_count')} value={job.ok_count} />
          <Statistic title={t('jobs.fields.fail_count')} value={job.fail_count} />
        </Space>
      )}
      {job.resumed > 0 && finished && job.state === ImportState.IMPORTED && (
        <Typography.Text type="secondary">{t('jobs.resumed_done', { count: job.resumed })}</Typography.Text>
      )}
      {job.download_path && (
        <Button icon={<DownloadOutlined />} href={jobFileHref(job)}>
          {t('jobs.download_report')}
        </Button>
      )}
    </Space>
  );
};

const useJob = (list: typeof JOBS_API.devImportList, jobId: number | null) =>
  useQuery({
    ...listQueryOptions(list, { id: jobId ?? 0 }),
    enabled: jobId !== null,
    refetchInterval: (q) => {
      const row = q.state.data?.rows[0];
      return row && (row.state === ImportState.IMPORTED || row.state === ImportState.FAILED) ? false : POLL_MS;
    },
  });

/**
 * Import dialog of product/device (opened by a toolbar button, kept mounted so a running job
 * survives closing): xlsx import with owner company, default product (for rows without a PK;
 * the list's product filter first), template, progress and report. A refusal that names the
 * company, the product or the file is shown on it.
 */
export const DeviceImportDialog = ({
  products,
  defaultPk,
  open,
  onClose,
}: { products: FieldOption[]; defaultPk?: string | undefined } & DialogProps) => {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const companies = useCompanyTreeData();
  const [compId, setCompId] = useState<number | undefined>();
  const [pk, setPk] = useState<string | undefined>();
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const [refused, setRefused] = useState<Partial<Record<ImportField, string>>>({});
  const job = useJob(JOBS_API.devImportList, jobId);
  const current = job.data?.rows[0];

  const reset = () => {
    setCompId(undefined);
    setPk(undefined);
    setFile(null);
    setFileList([]);
    setJobId(null);
    setRefused({});
  };
  // Each opening without a job starts from the list's product filter unless a product was chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the dialog opens
  useEffect(() => {
    if (open && jobId === null && pk === undefined && defaultPk) setPk(defaultPk);
  }, [open]);
  const close = () => {
    onClose();
    if (current && (current.state === ImportState.IMPORTED || current.state === ImportState.FAILED)) {
      void qc.invalidateQueries({ queryKey: [listKey(DEVICE_API.deviceList)] });
      reset();
    }
  };
  /** A changed field drops its refusal. */
  const changed = (field: ImportField) => setRefused(({ [field]: _gone, ...rest }) => rest);
  /** Form.Item props of a field a refusal names. */
  const refusalOf = (field: ImportField): Pick<FormItemProps, 'validateStatus' | 'help'> =>
    refused[field] ? { validateStatus: 'error', help: refused[field] } : {};

  const start = async () => {
    if (!file || compId === undefined) return;
    setBusy(true);
    setRefused({});
    try {
      const uploaded = await uploadImportFile(file);
      const answer = await call(JOBS_API.devImportAdd, {
        file_key: uploaded.key,
        file_name: file.name,
        comp_id: compId,
        pk: pk || undefined,
      });
      setJobId(answer.id);
      toastSuccess(t('jobs.import_started'));
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : null;
      const onFields = Object.entries(fields ?? {}).flatMap(([name, rule]) => {
        const field = IMPORT_FIELDS[name];
        return field ? [[field, refusalText(t, field, rule)] as const] : [];
      });
      const [first] = onFields;
      if (first) {
        setRefused(Object.fromEntries(onFields));
        toastError(first[1]);
      } else showApiError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('jobs.import_title')}
      onCancel={close}
      destroyOnHidden={false}
      footer={
        jobId === null
          ? [
              <Button key="cancel" onClick={close}>
                {t('common.cancel')}
              </Button>,
              <Button key="start" type="primary" loading={busy} disabled={!file || compId === undefined} onClick={() => void start()}>
                {t('jobs.start_import')}
              </Button>,
            ]
          : [
              <Button key="again" onClick={reset} disabled={!!current && current.state < ImportState.IMPORTED}>
                {t('jobs.import_another')}
              </Button>,
              <Button key="close" type="primary" onClick={close}>
                {t('common.done')}
              </Button>,
            ]
      }
    >
      {jobId === null ? (
        <Form layout="vertical">
          <Form.Item label={t('jobs.fields.comp_id')} required htmlFor="import-comp" {...refusalOf('comp_id')}>
            <TreeSelect
              id="import-comp"
              aria-label={t('jobs.fields.comp_id')}
              treeData={companies}
              value={compId}
              onChange={(v: number) => {
                setCompId(v);
                changed('comp_id');
              }}
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder={t('jobs.pick_company')}
            />
          </Form.Item>
          <Form.Item label={t('jobs.fields.pk')} htmlFor="import-pk" extra={t('jobs.pk_hint')} {...refusalOf('pk')}>
            <Select
              id="import-pk"
              aria-label={t('jobs.fields.pk')}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={products.map((p) => ({ value: p.value, label: p.text ?? String(p.value) }))}
              value={pk}
              onChange={(v?: string) => {
                setPk(v);
                changed('pk');
              }}
            />
          </Form.Item>
          <Form.Item label={t('jobs.template')}>
            <Typography.Link href={downloadHref(DOWNLOADS.importTemplate.path)} download>
              <DownloadOutlined /> {t('jobs.download_template')}
            </Typography.Link>
            <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
              {t('jobs.template_hint')}
            </Typography.Paragraph>
          </Form.Item>
          <Form.Item label={t('jobs.file')} required {...(refused.file ? refusalOf('file') : { extra: t('jobs.only_xlsx') })}>
            <Upload
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              maxCount={1}
              fileList={fileList}
              beforeUpload={(f) => {
                if (!isXlsx(f.name)) {
                  toastError(t('jobs.only_xlsx'));
                  return Upload.LIST_IGNORE;
                }
                setFile(f);
                setFileList([{ uid: f.uid, name: f.name, status: 'done' }]);
                changed('file');
                return false;
              }}
              onRemove={() => {
                setFile(null);
                setFileList([]);
              }}
            >
              <Button icon={<UploadOutlined />}>{t('jobs.choose_file')}</Button>
            </Upload>
          </Form.Item>
        </Form>
      ) : current ? (
        <ImportProgress job={current} />
      ) : (
        <Progress percent={0} status="active" aria-label={t('jobs.progress')} />
      )}
    </Modal>
  );
};

/** Export dialog of product/device: the filtered registrations as .xlsx. */
export const DeviceExportDialog = ({ filters, open, onClose }: { filters: Payload } & DialogProps) => (
  <RangeExportDialog
    filters={filters}
    defs={{ add: JOBS_API.devExportAdd, list: JOBS_API.devExportList }}
    labels={EXPORT_LABELS}
    open={open}
    onClose={onClose}
  />
);
