import { useTranslation } from 'react-i18next';
import { NotAvailable } from '../../components/page-state';
import { PublicFrame } from '../../components/public-frame';

/** /live_cdk, /live_play, /authorize until their screens exist. */
export default function PublicPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <PublicFrame title={t('app.title')} width={560}>
      <NotAvailable />
    </PublicFrame>
  );
}
