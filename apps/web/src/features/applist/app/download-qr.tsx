import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface DownloadQrProps {
  /** The absolute link the code holds. */
  link: string;
  /** The PNG's file name (without extension). */
  fileName: string;
  /** Accessible name of the code. */
  label: string;
}

/** A QR code of a download link, drawn on a canvas, with the link and a download-as-PNG button. */
export const DownloadQr = ({ link, fileName, label }: DownloadQrProps) => {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!canvas.current) return;
    // Error correction M survives a little print damage; 4 modules of quiet zone as the standard asks.
    QRCode.toCanvas(canvas.current, link, { errorCorrectionLevel: 'M', margin: 4, width: 240 }).then(
      () => setFailed(false),
      () => setFailed(true),
    );
  }, [link]);

  const savePng = () => {
    if (!canvas.current) return;
    const a = document.createElement('a');
    a.href = canvas.current.toDataURL('image/png');
    a.download = `${fileName.replace(/[^\w.-]+/g, '_')}.png`;
    a.click();
  };

  return (
    <Space orientation="vertical" align="center" style={{ width: '100%' }}>
      <canvas ref={canvas} role="img" aria-label={label} data-link={link} />
      {failed && <Typography.Text type="danger">{t('apps.qr.failed')}</Typography.Text>}
      <Typography.Paragraph copyable={{ text: link }} style={{ wordBreak: 'break-all', textAlign: 'center', marginBottom: 0 }}>
        <Typography.Link href={link} target="_blank" rel="noopener">
          {link}
        </Typography.Link>
      </Typography.Paragraph>
      <Button icon={<DownloadOutlined />} onClick={savePng} disabled={failed}>
        {t('apps.qr.download_png')}
      </Button>
    </Space>
  );
};
