import { AuditOutlined, ClusterOutlined, MenuOutlined, TeamOutlined } from '@ant-design/icons';
import type { MenuIconSet } from './icon-set';

/** The icons of the system group's screens in MENU_TREE: loaded when the sidebar first shows that group open. */
export const icons: MenuIconSet = {
  AuditOutlined,
  ClusterOutlined,
  MenuOutlined,
  TeamOutlined,
};
