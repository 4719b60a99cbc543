import { DashboardOutlined, LogoutOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import type { MenuNode } from '@iot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Layout, Menu, type MenuProps, Space, Typography } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { LanguageSelect } from '../components/language-select';
import { NoPermission } from '../components/lazy-page-state';
import { sidebarIcon } from '../components/sidebar-icon';
import { useAccess } from '../lib/access';
import { call } from '../lib/api';
import { currentLanguage } from '../lib/i18n';
import { withLang } from '../lib/lang';
import { menuLabel } from '../lib/menu-label';
import { forgetReturnPath } from '../lib/return-path';
import { clearSession, useSessionInfo } from '../lib/session';
import { LOGOUT } from '../lib/shell-paths';
import { installTableA11y } from '../lib/table-a11y';
import { useIsMobile } from '../lib/use-mobile';
import { isRouteHandle, type RouteHandle } from './route-handle';

type MenuItem = Required<MenuProps>['items'][number];

const MenuDrawer = lazy(() => import('./menu-drawer'));

const bySort = (a: MenuNode, b: MenuNode) => a.sort - b.sort || a.menu_id - b.menu_id;

const useMenuItems = (menus: MenuNode[]): MenuItem[] => {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const build = (list: MenuNode[]): MenuItem[] =>
      list
        .filter((m) => m.is_show === 1)
        .sort(bySort)
        .map((m) => {
          const children = build(m.sub_menus ?? []);
          const base = { key: m.menu_key, icon: sidebarIcon(m.icon), label: menuLabel(m, i18n) };
          return children.length > 0 ? { ...base, children } : base;
        });
    return [{ key: 'dashboard', icon: <DashboardOutlined />, label: t('route.dashboard') }, ...build(menus)];
    // i18n.language: labels follow the language.
  }, [menus, t, i18n, i18n.language]);
};

/** The handle of the deepest matched route. */
const useRouteHandle = (): RouteHandle => {
  const matches = useMatches();
  const last = [...matches].reverse().find((m) => isRouteHandle(m.handle));
  return isRouteHandle(last?.handle) ? last.handle : {};
};

const SideMenu = ({ items, onNavigate }: { items: MenuItem[]; onNavigate?: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const selected = pathname.replace(/^\/+/, '');
  const group = selected.split('/')[0] ?? '';
  const [openKeys, setOpenKeys] = useState<string[]>([group]);
  useEffect(() => setOpenKeys((keys) => (keys.includes(group) ? keys : [...keys, group])), [group]);
  return (
    <nav aria-label={t('app.main_menu')}>
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[selected]}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          navigate({ pathname: `/${key}`, search: withLang('', currentLanguage()) });
          onNavigate?.();
        }}
        style={{ borderInlineEnd: 0 }}
      />
    </nav>
  );
};

/**
 * Signed-in frame: sider menu from the server's menus (drawer under 599 px),
 * header with language, user and logout, and the route's access check.
 */
export const AppLayout = () => {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const access = useAccess();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(false);
  useEffect(installTableA11y, []);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer's code loads on the first tap of the menu button, then the drawer stays mounted.
  const [drawerWanted, setDrawerWanted] = useState(false);
  const items = useMenuItems(session?.menus ?? []);
  const handle = useRouteHandle();

  const allowed = (!handle.menuKey || access.can(handle.menuKey)) && (!handle.superOnly || access.isSuper);

  const logout = async () => {
    try {
      await call(LOGOUT);
    } catch {
      // The token is dropped locally whatever the server says.
    }
    clearSession();
    queryClient.clear();
    await navigate({ pathname: '/login', search: location.search }, { replace: true });
    forgetReturnPath();
  };

  const brand = (
    <Typography.Text strong style={{ display: 'block', padding: '16px 24px', whiteSpace: 'nowrap', overflow: 'hidden' }}>
      {collapsed && !isMobile ? 'IoT' : t('app.title')}
    </Typography.Text>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!isMobile && (
        <Layout.Sider
          theme="light"
          collapsible
          collapsed={collapsed}
          trigger={null}
          width={224}
          style={{ borderInlineEnd: '1px solid #f0f0f0' }}
        >
          {brand}
          <SideMenu items={items} />
        </Layout.Sider>
      )}
      {isMobile && drawerWanted && (
        <Suspense fallback={null}>
          <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title={t('app.title')}>
            <SideMenu items={items} onNavigate={() => setDrawerOpen(false)} />
          </MenuDrawer>
        </Suspense>
      )}
      <Layout>
        <Layout.Header
          style={{ background: '#fff', padding: isMobile ? '0 8px' : '0 16px', borderBottom: '1px solid #f0f0f0', lineHeight: 'normal' }}
        >
          <Flex align="center" justify="space-between" style={{ height: '100%' }} gap={8}>
            <Button
              type="text"
              aria-label={isMobile ? t('app.open_menu') : t(collapsed ? 'app.expand_menu' : 'app.collapse_menu')}
              icon={isMobile ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => {
                if (!isMobile) setCollapsed(!collapsed);
                else {
                  setDrawerWanted(true);
                  setDrawerOpen(true);
                }
              }}
            />
            <Space size={isMobile ? 4 : 12}>
              <LanguageSelect compact={isMobile} />
              {!isMobile && (
                <Typography.Text>
                  <UserOutlined aria-hidden /> {session?.user.user_name || session?.user.user_id}
                </Typography.Text>
              )}
              <Button type="text" icon={<LogoutOutlined />} onClick={logout} aria-label={t('app.logout')}>
                {isMobile ? null : t('app.logout')}
              </Button>
            </Space>
          </Flex>
        </Layout.Header>
        <Layout.Content style={handle.fullWidth ? { margin: 0 } : { margin: isMobile ? 8 : 24 }}>
          {/* Layout.Content is the page's <main> landmark. */}
          {allowed ? (
            <Outlet />
          ) : (
            <Suspense fallback={null}>
              <NoPermission />
            </Suspense>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
};
