import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpin } from '../components/full-page-spin';
import { LoadFailed } from '../components/lazy-page-state';
import { fetchAccount } from '../lib/account';
import { rememberReturnPath } from '../lib/return-path';
import { setSessionInfo, useSessionInfo, useToken } from '../lib/session';

/**
 * Signed-in routes: no token → /login keeping the query string; a token but
 * no user yet (reload) → v2/user/account/get.
 */
export const RequireAuth = () => {
  const token = useToken();
  const info = useSessionInfo();
  const location = useLocation();
  const account = useQuery({
    queryKey: ['session', token],
    queryFn: ({ signal }) => fetchAccount(signal),
    enabled: !!token && !info,
    staleTime: Number.POSITIVE_INFINITY,
  });

  useEffect(() => {
    if (account.data && !info) setSessionInfo({ user: account.data.user, menus: account.data.menus ?? [] });
  }, [account.data, info]);

  if (!token) {
    rememberReturnPath(location.pathname + location.hash);
    return <Navigate to={{ pathname: '/login', search: location.search }} replace />;
  }
  if (info) return <Outlet />;
  if (account.isError) {
    return (
      <Suspense fallback={<FullPageSpin />}>
        <LoadFailed onRetry={() => account.refetch()} />
      </Suspense>
    );
  }
  return <FullPageSpin />;
};
