import { DeleteOutlined, FileProtectOutlined, UploadOutlined } from '@ant-design/icons';
import { SECRET_MASK } from '@iot/contract';
import { Button, Flex, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The contract's limit of `secret_file` (schemas/push.ts). */
export const SECRET_FILE_MAX_BYTES = 16_384;
const ACCEPT = '.json,.pem,.p8,.key,.txt';

interface SecretFileInputProps {
  /** The file's text to send, the mask (a file is stored), or '' (none). */
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  id?: string;
}

/**
 * Form control of a vendor's key file (a service-account JSON, a PEM key): the file is read in
 * the browser and its text sent with the form, where the server seals it like the other secrets.
 * What is stored is never shown again: the control says whether a file is stored, and offers to
 * replace or remove it (the mask sent back unchanged keeps it).
 */
export const SecretFileInput = ({ value = '', onChange, disabled, id }: SecretFileInputProps) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const [problem, setProblem] = useState<'too_big' | 'not_text' | null>(null);

  const read = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (file.size > SECRET_FILE_MAX_BYTES) {
      setProblem('too_big');
      return;
    }
    const text = await file.text();
    // Binary files (a .p12, a zip) hold NUL or other control bytes, or do not decode as UTF-8.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/.test(text)) {
      setProblem('not_text');
      return;
    }
    setChosen({ name: file.name, size: file.size });
    onChange?.(text);
  };

  const status =
    value === SECRET_MASK
      ? t('msg_platform.file.stored')
      : value && chosen
        ? t('msg_platform.file.chosen', { name: chosen.name, size: chosen.size })
        : value
          ? t('msg_platform.file.pasted', { size: value.length })
          : t('msg_platform.file.none');

  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center" wrap>
        <input
          ref={input}
          id={id}
          type="file"
          accept={ACCEPT}
          style={{ display: 'none' }}
          onChange={(e) => {
            void read(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button icon={<UploadOutlined />} disabled={disabled} onClick={() => input.current?.click()}>
          {value ? t('msg_platform.file.replace') : t('msg_platform.file.choose')}
        </Button>
        {value ? (
          <Button
            type="link"
            danger
            icon={<DeleteOutlined />}
            disabled={disabled}
            onClick={() => {
              setChosen(null);
              onChange?.('');
            }}
          >
            {t('msg_platform.file.remove')}
          </Button>
        ) : null}
      </Flex>
      <Typography.Text type={problem ? 'danger' : 'secondary'} role={problem ? 'alert' : undefined}>
        {value ? <FileProtectOutlined style={{ marginInlineEnd: 6 }} /> : null}
        {problem ? t(`msg_platform.file.${problem}`, { max: SECRET_FILE_MAX_BYTES / 1024 }) : status}
      </Typography.Text>
    </Flex>
  );
};
