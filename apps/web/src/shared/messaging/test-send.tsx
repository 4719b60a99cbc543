import { PUSH_API, type PushRecordRow } from '@iot/contract';
import { Alert, Descriptions, Modal, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../components/field-config';
import { ModalForm } from '../../components/modal-form';
import { call } from '../../lib/api';
import type { Payload } from '../../lib/resource';
import { usePlatformOptions } from './options';

type Target = { kind: 'platform'; id: number; name: string } | { kind: 'template'; id: number; name: string };

const platformFields: Fields<'push_platform'> = [{ name: 'recipient', extra: 'push_platform.recipient_hint' }];

/** The outcome of a test send: its push record (state, provider id or error). */
const Outcome = ({ record, onClose }: { record: PushRecordRow; onClose: () => void }) => {
  const { t } = useTranslation();
  const sent = record.state === 2;
  return (
    <Modal open title={t('push_platform.test_send')} onOk={onClose} onCancel={onClose} cancelButtonProps={{ hidden: true }}>
      <Alert type={sent ? 'success' : 'error'} title={t(sent ? 'push_platform.test_sent' : 'push_platform.test_failed')} showIcon />
      <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
        <Descriptions.Item label={t('push_record.fields.id')}>{record.id}</Descriptions.Item>
        <Descriptions.Item label={t('push_record.fields.recipient')}>{record.recipient}</Descriptions.Item>
        <Descriptions.Item label={t('push_record.fields.state')}>
          <Tag color={sent ? 'green' : 'red'}>{t(`push_record.states.${record.state}` as 'push_record.states.1')}</Tag>
        </Descriptions.Item>
        {record.title && <Descriptions.Item label={t('push_record.fields.title')}>{record.title}</Descriptions.Item>}
        {record.error && <Descriptions.Item label={t('push_record.fields.error')}>{record.error}</Descriptions.Item>}
      </Descriptions>
    </Modal>
  );
};

/** "Test send" on a platform or a template row: asks for a recipient, sends now, shows the record. */
export const useTestSend = () => {
  const [target, setTarget] = useState<Target | null>(null);
  const [record, setRecord] = useState<PushRecordRow | null>(null);
  const platforms = usePlatformOptions();
  const templateFields = useMemo<Fields<'push_template'>>(
    () => [
      { name: 'platform_id', widget: 'select', options: platforms },
      { name: 'recipient', extra: 'push_platform.recipient_hint' },
    ],
    [platforms],
  );
  const send = async (payload: Payload) => {
    if (!target) return;
    const answer =
      target.kind === 'platform'
        ? await call(PUSH_API.pushPlatformTest, { ...payload, id: target.id } as never)
        : await call(PUSH_API.pushTemplateTest, { ...payload, id: target.id } as never);
    setRecord(answer);
  };
  const modal = (
    <>
      <ModalForm
        open={target !== null}
        title="push_platform.test_send"
        okText="push_platform.send"
        fields={target?.kind === 'template' ? templateFields : platformFields}
        area={target?.kind === 'template' ? 'push_template' : 'push_platform'}
        mode="add"
        schema={target?.kind === 'template' ? PUSH_API.pushTemplateTest.input : PUSH_API.pushPlatformTest.input}
        fixed={target ? { id: target.id } : undefined}
        onSubmit={send}
        onClose={() => setTarget(null)}
      />
      {record && <Outcome record={record} onClose={() => setRecord(null)} />}
    </>
  );
  return { open: setTarget, modal };
};
