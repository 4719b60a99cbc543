import type { AppPlatform } from '@iot/contract';
import { Alert, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** App keys the server has just made: shown here once, never readable again. */
export interface ShownKeys {
  appName: string;
  keys: { platform: AppPlatform; key: string }[];
}

export const KeyModal = ({ shown, onClose }: { shown: ShownKeys | null; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Modal
      open={shown !== null}
      title={t('apps.keys.title', { name: shown?.appName ?? '' })}
      okText={t('apps.keys.stored')}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('apps.keys.once')} style={{ marginBottom: 16 }} />
      <Descriptions column={1} bordered size="small">
        {shown?.keys.map(({ platform, key }) => (
          <Descriptions.Item key={platform} label={t(`apps.platforms.${platform}`)}>
            <Typography.Text code copyable={{ text: key, tooltips: [t('apps.keys.copy'), t('apps.keys.copied')] }} data-key={platform}>
              {key}
            </Typography.Text>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Modal>
  );
};
