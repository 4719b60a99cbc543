/**
 * The menu tree of SPEC §2. `key` is the route path without the leading slash and
 * is the permission unit (CONTRACT §5). The server seeds its `menu` table from this
 * tree; `system/menu` may later rename, reorder or hide entries.
 */
export interface MenuSeed {
  key: string;
  name: string;
  cnName: string;
  icon: string;
  /** false for pages reachable only by link (e.g. one device in depth). */
  show?: boolean;
  /** Screens that hide the content frame (full width). */
  fullWidth?: boolean;
  children?: MenuSeed[];
}

export const MENU_TREE: MenuSeed[] = [
  {
    key: 'system',
    name: 'System',
    cnName: '系统管理',
    icon: 'SettingOutlined',
    children: [
      { key: 'system/role', name: 'Roles', cnName: '角色管理', icon: 'TeamOutlined' },
      { key: 'system/menu', name: 'Menus', cnName: '菜单管理', icon: 'MenuOutlined' },
      { key: 'system/resource', name: 'Service resources', cnName: '服务资源', icon: 'ClusterOutlined' },
      { key: 'system/audit', name: 'Audit log', cnName: '审计日志', icon: 'AuditOutlined' },
    ],
  },
  {
    key: 'product',
    name: 'Products',
    cnName: '产品管理',
    icon: 'AppstoreOutlined',
    children: [
      { key: 'product/iot', name: 'IoT products', cnName: '物联网产品', icon: 'ApiOutlined' },
      { key: 'product/device', name: 'Device registration', cnName: '设备注册', icon: 'VideoCameraOutlined' },
      { key: 'product/device_state', name: 'Device state', cnName: '设备状态', icon: 'WifiOutlined' },
      { key: 'product/dev_dup', name: 'Duplicate devices', cnName: '重复设备', icon: 'CopyOutlined' },
      { key: 'product/awake', name: 'Wake state', cnName: '唤醒状态', icon: 'PoweroffOutlined' },
      { key: 'product/lic_list', name: 'Licence codes', cnName: '授权码', icon: 'SafetyCertificateOutlined' },
      { key: 'product/iccid', name: 'ICC IDs', cnName: 'ICCID', icon: 'CreditCardOutlined' },
      { key: 'product/actcode', name: 'Activation codes', cnName: '激活码', icon: 'KeyOutlined' },
      { key: 'product/cdkorder', name: 'CDK orders', cnName: '激活码订单', icon: 'FileTextOutlined' },
      { key: 'product/product_list', name: 'Mall goods', cnName: '商城商品', icon: 'ShoppingOutlined' },
      { key: 'product/order', name: 'Orders', cnName: '订单', icon: 'ProfileOutlined' },
      { key: 'product/refund', name: 'Refunds', cnName: '退款', icon: 'RollbackOutlined' },
      { key: 'product/cloud', name: 'Cloud orders', cnName: '云存储订单', icon: 'CloudOutlined' },
    ],
  },
  {
    key: 'applist',
    name: 'Apps',
    cnName: '应用管理',
    icon: 'MobileOutlined',
    children: [
      { key: 'applist/app', name: 'Apps', cnName: '应用列表', icon: 'AppstoreAddOutlined' },
      { key: 'applist/flatform', name: 'Push platforms', cnName: '推送平台', icon: 'NotificationOutlined' },
      { key: 'applist/template', name: 'Push templates', cnName: '推送模板', icon: 'FormOutlined' },
      { key: 'applist/record', name: 'Push records', cnName: '推送记录', icon: 'HistoryOutlined' },
      { key: 'applist/user', name: 'App users', cnName: '应用用户', icon: 'UserOutlined' },
      { key: 'applist/dev', name: 'Device bindings', cnName: '设备绑定', icon: 'LinkOutlined' },
      { key: 'applist/notice_template', name: 'Notice templates', cnName: '通知模板', icon: 'MailOutlined' },
      { key: 'applist/msg_mng', name: 'Message templates', cnName: '消息模板', icon: 'MessageOutlined' },
      { key: 'applist/alarm', name: 'Alarms', cnName: '告警', icon: 'AlertOutlined' },
      { key: 'applist/log_list', name: 'Logs', cnName: '日志', icon: 'FileSearchOutlined' },
    ],
  },
  {
    key: 'operate',
    name: 'Operations',
    cnName: '运营管理',
    icon: 'ControlOutlined',
    children: [
      { key: 'operate/company', name: 'Companies', cnName: '公司管理', icon: 'BankOutlined' },
      { key: 'operate/user', name: 'Users', cnName: '用户管理', icon: 'UserSwitchOutlined' },
      { key: 'operate/cloud', name: 'Cloud storage', cnName: '云存储平台', icon: 'CloudServerOutlined' },
      { key: 'operate/payment', name: 'Payment', cnName: '支付配置', icon: 'PayCircleOutlined' },
      { key: 'operate/platform', name: 'Other platforms', cnName: '第三方平台', icon: 'GlobalOutlined' },
      { key: 'operate/shop', name: 'Shops', cnName: '店铺', icon: 'ShopOutlined' },
      { key: 'operate/good', name: 'Goods', cnName: '商品', icon: 'GiftOutlined' },
      { key: 'operate/device', name: 'Device detail', cnName: '设备详情', icon: 'DesktopOutlined' },
      { key: 'operate/server', name: 'Servers', cnName: '服务器', icon: 'DatabaseOutlined' },
      { key: 'operate/zone', name: 'Zones', cnName: '区域', icon: 'EnvironmentOutlined' },
      { key: 'operate/ipserver', name: 'IP servers', cnName: 'IP 服务器', icon: 'NodeIndexOutlined' },
      { key: 'operate/consul', name: 'Service nodes', cnName: '服务节点', icon: 'DeploymentUnitOutlined' },
      { key: 'operate/setmng', name: 'Service configs', cnName: '服务配置', icon: 'ToolOutlined' },
      { key: 'operate/settemp', name: 'Config template', cnName: '配置模板', icon: 'SnippetsOutlined' },
      { key: 'operate/pushconf', name: 'Feedback push', cnName: '反馈推送配置', icon: 'SendOutlined' },
      { key: 'operate/live_server', name: 'Live servers', cnName: '直播服务器', icon: 'PlayCircleOutlined', fullWidth: true },
      { key: 'operate/bot', name: 'Feedback bot', cnName: '反馈机器人', icon: 'RobotOutlined', fullWidth: true },
      { key: 'operate/service', name: 'Feedback desk', cnName: '客服工作台', icon: 'CustomerServiceOutlined', fullWidth: true },
    ],
  },
  {
    key: 'info',
    name: 'Statistics',
    cnName: '统计',
    icon: 'BarChartOutlined',
    children: [
      { key: 'info/order', name: 'Order statistics', cnName: '订单统计', icon: 'LineChartOutlined' },
      { key: 'info/user', name: 'User statistics', cnName: '用户统计', icon: 'AreaChartOutlined' },
      { key: 'info/dev', name: 'Device statistics', cnName: '设备统计', icon: 'PieChartOutlined' },
    ],
  },
  {
    key: 'user',
    name: 'Account',
    cnName: '账户',
    icon: 'IdcardOutlined',
    children: [
      { key: 'user/info', name: 'My account', cnName: '我的账户', icon: 'SolutionOutlined' },
      { key: 'user/bills', name: 'Bills', cnName: '账单', icon: 'AccountBookOutlined' },
    ],
  },
];

/** Group routes redirect to their first child (SPEC §2). */
export const GROUP_REDIRECTS: Record<string, string> = {
  system: 'system/role',
  product: 'product/iot',
  applist: 'applist/app',
  operate: 'operate/cloud',
  info: 'info/order',
  user: 'user/info',
};

export const flattenMenuSeeds = (tree: MenuSeed[] = MENU_TREE): MenuSeed[] =>
  tree.flatMap((m) => [m, ...flattenMenuSeeds(m.children ?? [])]);

export const ALL_MENU_KEYS: string[] = flattenMenuSeeds().map((m) => m.key);
