import { GROUP_REDIRECTS, MENU_TREE } from '@iot/contract';
import type { ComponentType } from 'react';
import { Navigate, type RouteObject, useLocation } from 'react-router';
import { FullPageSpin } from '../components/full-page-spin';
import { loadAreas } from '../lib/i18n';
import type { AreaName } from '../locales/areas';
import type { RouteHandle } from './route-handle';

type PageModule = () => Promise<{ Component: ComponentType }>;
/** A page's module: the page, and the message areas it uses beyond the base messages (locales/areas.ts). */
type PageFile = { default: ComponentType; areas?: readonly AreaName[] };

/** A lazy route's loader: the page's module, then its message areas, before it renders. */
const page =
  (load: () => Promise<PageFile>): PageModule =>
  async () => {
    const module = await load();
    await loadAreas(module.areas);
    return { Component: module.default };
  };

const placeholder: PageModule = async () => ({ Component: (await import('../components/page-state')).NotAvailable });
const notFound: PageModule = async () => ({ Component: (await import('../components/page-state')).NotFound });
const publicPlaceholder: PageModule = async () => ({ Component: (await import('../features/shell/public-placeholder-page')).default });

/**
 * Screens by menu key: the page of menu key `<group>/<screen>` is the default export of
 * `features/<group>/<screen>/*-page.tsx` (one per folder), loaded lazily. A menu key without a
 * page shows "Not yet available" inside the layout; adding a screen adds its folder, nothing here.
 */
const PAGES = import.meta.glob<PageFile>('../features/*/*/*-page.tsx');
const SCREENS: Record<string, PageModule> = Object.fromEntries(
  Object.entries(PAGES).map(([file, load]) => [file.split('/').slice(2, 4).join('/'), page(load)]),
);

/** Keeps the query string (lang…) across redirects. */
const RedirectKeepQuery = ({ to }: { to: string }) => {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
};

const menuRoutes: RouteObject[] = MENU_TREE.map((group) => ({
  path: group.key,
  children: [
    { index: true, element: <RedirectKeepQuery to={`/${GROUP_REDIRECTS[group.key] ?? group.children?.[0]?.key ?? 'dashboard'}`} /> },
    ...(group.children ?? []).map<RouteObject>((screen) => ({
      path: screen.key.slice(group.key.length + 1),
      lazy: SCREENS[screen.key] ?? placeholder,
      handle: { title: `menu.${screen.key}`, menuKey: screen.key, fullWidth: screen.fullWidth } satisfies RouteHandle,
    })),
  ],
}));

/**
 * The one routes table of SPEC §2. Root and auth elements come from the
 * caller (router.tsx) so this file stays a plain table; every page is lazy.
 */
export const buildRoutes = (shell: { root: ComponentType; requireAuth: ComponentType }): RouteObject[] => [
  {
    path: '/',
    Component: shell.root,
    hydrateFallbackElement: <FullPageSpin />,
    children: [
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('../features/auth/login/login-page')).default }),
        handle: { title: 'route.login' } satisfies RouteHandle,
      },
      {
        path: 'link3_login',
        lazy: async () => ({ Component: (await import('../features/auth/login/login-page')).Link3LoginPage }),
        handle: { title: 'route.auth_login' } satisfies RouteHandle,
      },
      {
        path: 'register',
        lazy: page(() => import('../features/auth/register/register-page')),
        handle: { title: 'route.register' } satisfies RouteHandle,
      },
      { path: 'live_cdk', lazy: publicPlaceholder, handle: { title: 'route.live_cdk' } satisfies RouteHandle },
      { path: 'live_play', lazy: publicPlaceholder, handle: { title: 'route.live_play' } satisfies RouteHandle },
      { path: 'authorize', lazy: publicPlaceholder, handle: { title: 'route.authorize' } satisfies RouteHandle },
      {
        Component: shell.requireAuth,
        children: [
          {
            // Lazy: the sider menu, drawer and icons stay out of the login page's JS.
            lazy: async () => ({ Component: (await import('./app-layout')).AppLayout }),
            children: [
              { index: true, element: <RedirectKeepQuery to="/dashboard" /> },
              {
                path: 'dashboard',
                lazy: page(() => import('../features/dashboard/dashboard-page')),
                handle: { title: 'route.dashboard', menuKey: 'dashboard' } satisfies RouteHandle,
              },
              {
                path: '___api_test',
                lazy: async () => ({ Component: (await import('../features/api-test/api-test-page')).default }),
                handle: { title: 'route.api_test', superOnly: true } satisfies RouteHandle,
              },
              ...menuRoutes,
              { path: '*', lazy: notFound, handle: { title: 'route.not_found' } satisfies RouteHandle },
            ],
          },
        ],
      },
    ],
  },
];
