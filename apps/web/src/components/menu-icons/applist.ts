import {
  AlertOutlined,
  AppstoreAddOutlined,
  FileSearchOutlined,
  FormOutlined,
  HistoryOutlined,
  LinkOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuIconSet } from './icon-set';

/** The icons of the applist group's screens in MENU_TREE: loaded when the sidebar first shows that group open. */
export const icons: MenuIconSet = {
  AlertOutlined,
  AppstoreAddOutlined,
  FileSearchOutlined,
  FormOutlined,
  HistoryOutlined,
  LinkOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  UserOutlined,
};
