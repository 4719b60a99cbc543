import {
  AppstoreOutlined,
  BarChartOutlined,
  ControlOutlined,
  DashboardOutlined,
  IdcardOutlined,
  MobileOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { MenuIconSet } from './icon-set';

/** The icons of the top-level groups of MENU_TREE and the dashboard: always in the sidebar, loaded with it. */
export const icons: MenuIconSet = {
  AppstoreOutlined,
  BarChartOutlined,
  ControlOutlined,
  DashboardOutlined,
  IdcardOutlined,
  MobileOutlined,
  SettingOutlined,
};
