import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

/*
 * Result and its illustrations (~9 KiB) are not start-up or layout code: app/ loads these
 * through lazy-page-state.tsx, the routes table with import().
 */

const HomeButton = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  return (
    <Button type="primary" onClick={() => navigate({ pathname: '/dashboard', search })}>
      {t('app.back_home')}
    </Button>
  );
};

/** 403-style page: the route's menu key is not in the user's menus. */
export const NoPermission = () => {
  const { t } = useTranslation();
  return <Result status="403" title={t('pages.no_permission_title')} subTitle={t('pages.no_permission_desc')} extra={<HomeButton />} />;
};

/** Honest placeholder for screens of later issues. */
export const NotAvailable = () => {
  const { t } = useTranslation();
  return <Result status="info" title={t('pages.not_available_title')} subTitle={t('pages.not_available_desc')} />;
};

/** The signed-in user could not be loaded (reload with a token): try again. */
export const LoadFailed = ({ onRetry }: { onRetry: () => unknown }) => {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('errors.obtain_failed')}
      extra={
        <Button type="primary" onClick={() => onRetry()}>
          {t('common.refresh')}
        </Button>
      }
    />
  );
};

/** Catch-all. */
export const NotFound = () => {
  const { t } = useTranslation();
  return <Result status="404" title={t('pages.not_found_title')} subTitle={t('pages.not_found_desc')} extra={<HomeButton />} />;
};
