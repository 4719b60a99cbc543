import {
  ApiOutlined,
  CloudOutlined,
  CopyOutlined,
  CreditCardOutlined,
  FileTextOutlined,
  KeyOutlined,
  PoweroffOutlined,
  ProfileOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  ShoppingOutlined,
  VideoCameraOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { MenuIconSet } from './icon-set';

/** The icons of the product group's screens in MENU_TREE: loaded when the sidebar first shows that group open. */
export const icons: MenuIconSet = {
  ApiOutlined,
  CloudOutlined,
  CopyOutlined,
  CreditCardOutlined,
  FileTextOutlined,
  KeyOutlined,
  PoweroffOutlined,
  ProfileOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  ShoppingOutlined,
  VideoCameraOutlined,
  WifiOutlined,
};
