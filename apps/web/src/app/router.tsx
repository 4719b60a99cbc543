import { createBrowserRouter } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api';
import { rememberReturnPath } from '../lib/return-path';
import { RequireAuth } from './require-auth';
import { RootShell } from './root-shell';
import { buildRoutes } from './routes';

export const router = createBrowserRouter(buildRoutes({ root: RootShell, requireAuth: RequireAuth }));

// Session expiry (code 401): back to /login with the same query string, then back here.
setUnauthorizedHandler(() => {
  const { pathname, search, hash } = window.location;
  if (pathname === '/login' || pathname === '/link3_login') return;
  rememberReturnPath(pathname + hash);
  void router.navigate({ pathname: '/login', search }, { replace: true });
});
