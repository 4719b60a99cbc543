import { AreaChartOutlined, LineChartOutlined, PieChartOutlined } from '@ant-design/icons';
import type { MenuIconSet } from './icon-set';

/** The icons of the info group's screens in MENU_TREE: loaded when the sidebar first shows that group open. */
export const icons: MenuIconSet = {
  AreaChartOutlined,
  LineChartOutlined,
  PieChartOutlined,
};
