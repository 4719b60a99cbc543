import { DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { fileUrlOf, type UploadOutput } from '@iot/contract';
import { Button, Image, Space, Typography, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestHeaders } from '../../lib/api';
import { toastError } from '../../lib/feedback';
import { uploadErrorKey } from '../../lib/upload-error';

const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'gif'];
/** The server's default UPLOAD_LIMIT; it refuses larger files with 413 anyway. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Posts one image to `/api/v2/oss/upload` (folder `images`) with the Bearer token. A failure
 * rejects with the HTTP status at the end of its message, which SPEC §8 maps to a message.
 */
const uploadImage = async (file: File): Promise<UploadOutput> => {
  const form = new FormData();
  form.append('folder', 'images');
  form.append('file', file, file.name);
  const res = await fetch('/api/v2/oss/upload', { method: 'POST', headers: requestHeaders(), body: form });
  const body = (await res.json().catch(() => null)) as { code?: number; data?: UploadOutput } | null;
  if (!res.ok || body?.code !== 200 || !body.data)
    throw new Error(`Request failed with status code ${res.ok ? (body?.code ?? 500) : res.status}`);
  return body.data;
};

interface ImageUploadProps {
  /** The storage key of the image ('' = none). */
  value?: string;
  onChange?: (key: string) => void;
  disabled?: boolean;
  id?: string;
}

/** Form control: picks and uploads an image, shows its preview, removes it. */
export const ImageUpload = ({ value, onChange, disabled, id }: ImageUploadProps) => {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  const beforeUpload = (file: File) => {
    const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
    if (!IMAGE_EXTENSIONS.includes(ext)) {
      toastError(t('errors.upload_format'));
      return Upload.LIST_IGNORE;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      toastError(t('product.image_too_large'));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async (options) => {
    setBusy(true);
    try {
      const answer = await uploadImage(options.file as File);
      onChange?.(answer.key);
      options.onSuccess?.(answer);
    } catch (err) {
      toastError(t(`errors.${uploadErrorKey(err)}`));
      options.onError?.(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space align="start" wrap>
      {value ? (
        <Image
          src={fileUrlOf(value)}
          alt={t('product.fields.img')}
          width={96}
          height={96}
          style={{ objectFit: 'contain', border: '1px solid rgba(5,5,5,0.06)', borderRadius: 8 }}
        />
      ) : null}
      <Space orientation="vertical" size={4}>
        <Upload
          id={id}
          accept={IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',')}
          showUploadList={false}
          maxCount={1}
          disabled={disabled || busy}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
        >
          <Button icon={busy ? <LoadingOutlined /> : <PlusOutlined />} disabled={disabled || busy}>
            {t('product.upload')}
          </Button>
        </Upload>
        {value ? (
          <Button size="small" type="link" danger icon={<DeleteOutlined />} disabled={disabled} onClick={() => onChange?.('')}>
            {t('common.delete')}
          </Button>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('product.upload_hint')}
        </Typography.Text>
      </Space>
    </Space>
  );
};
