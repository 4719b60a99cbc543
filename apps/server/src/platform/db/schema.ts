import type { AUDIT_ACTIONS, DEVICE_EVENT_TYPES, OtaUpgradeState, ProductVersionDetail } from '@iot/contract';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Unix seconds, stored as bigint and parsed back to number by both drivers. */
type Unix = number;

export interface CompanyTable {
  comp_id: Generated<number>;
  comp_name: string;
  comp_short_name: string;
  comp_key: string;
  comp_type: number;
  comp_parent_id: number;
  comp_top_id: number;
  /** Materialised path `/1/5/12/`: a subtree is a prefix match (company scope). */
  comp_path: string;
  comp_addr: string;
  comp_person: string;
  area: string;
  area_id: number;
  country: string;
  province: string;
  city: string;
  dk: number;
  dk_limit: number;
  sys: string;
  latitude: number | null;
  longitude: number | null;
  comp_phone_area: string;
  comp_phone: string;
  sort: number | null;
  state: number;
  gmt_create: Unix;
  gmt_update: Unix;
}

export interface UserTable {
  id: Generated<number>;
  user_id: string;
  password_hash: string;
  user_name: string;
  user_email: string;
  user_phone: string;
  user_phone_area: string;
  validity_time: Unix;
  remark: string;
  comp_id: number;
  state: number;
  user_type: number;
  role_id: number | null;
  /** Created by self-registration; enabled when the parent company approves. */
  pending_registration: boolean;
  gmt_create: Unix;
  gmt_update: Unix;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  cn_name: string;
  state: number;
  type: number;
  data_scope: number;
  comp_id: number;
  gmt_create: Unix;
  gmt_update: Unix;
}

export interface MenuTable {
  menu_id: Generated<number>;
  menu_key: string;
  menu_name: string;
  menu_cn_name: string;
  menu_tw_name: string;
  menu_parent_id: number;
  icon: string;
  sort: number;
  is_show: number;
}

export interface RoleMenuTable {
  role_id: number;
  menu_id: number;
}

export interface UserTokenTable {
  token_hash: string;
  user_pk: number;
  expires_at: Unix;
  revoked_at: Unix | null;
  device_system: string;
  device_model: string;
  ip: string;
  gmt_create: Unix;
}

export interface LoginKeyTable {
  key_id: string;
  public_key: string;
  /** PKCS#8 PEM sealed with the server secret (AES-256-GCM). */
  private_key_sealed: string;
  gmt_create: Unix;
}

export interface LoginReplayTable {
  cipher_hash: string;
  expires_at: Unix;
}

export interface LoginFailureTable {
  bucket: string;
  failures: number;
  window_start: Unix;
  locked_until: Unix;
}

export interface SrvResourceTable {
  id: Generated<number>;
  res_type: string;
  sys: string;
  name: string;
  data: JSONColumnType<Record<string, unknown>>;
  gmt_create: Unix;
  gmt_update: Unix;
}

export interface AuditLogTable {
  id: Generated<number>;
  user_id: string;
  comp_id: number;
  path: string;
  action: (typeof AUDIT_ACTIONS)[number];
  target_id: string;
  changes: JSONColumnType<Record<string, { before: unknown; after: unknown }>>;
  ip: string;
  request_id: string;
  gmt_create: ColumnType<Unix, Unix, never>;
}

/** Users per company, kept by triggers (migration 0002): counts a list without filters. */
export interface CompanyUserCountTable {
  comp_id: number;
  users: number;
}

export interface ProductCategoryTable {
  id: Generated<number>;
  name: string;
  cn_name: string;
  sort: number;
}

export interface ProductTable {
  id: Generated<number>;
  pk: string;
  name: string;
  comp_id: number;
  node_type: number;
  category_id: number | null;
  img: string;
  remark: string;
  sys: string;
  attr: string;
  oem: number;
  link_id: string;
  link_type: number;
  batch_id: string;
  create_time: Unix;
  update_time: Unix;
}

export interface ProductShareTable {
  product_id: number;
  comp_id: number;
  gmt_create: Unix;
}

export interface DeviceTable {
  id: Generated<number>;
  uid: string;
  mac: string;
  pk: string;
  comp_id: number;
  dev_key: string;
  import_id: number | null;
  gmt_create: Unix;
  gmt_update: Unix;
}

/** Devices per company and id block (`id >> 16`), kept by triggers (migration 0006): deep pages. */
export interface DeviceBlockTable {
  comp_id: number;
  block: number;
  n: number;
}

export interface DeviceStateTable {
  device_id: number;
  online: number;
  active: number;
  gmt_active: Unix | null;
  network_type: number;
  vendor: string;
  protocol: string;
  last_online: Unix | null;
  last_offline: Unix | null;
  last_seen: Unix | null;
  /** Lower bound of last_seen for online devices, moved on coming online and by the sweeper (0013). */
  seen_mark: Unix | null;
  offline_reason: number;
  wake_state: number;
  country: string;
  properties: JSONColumnType<Record<string, unknown>>;
}

/** Background jobs (migration 0008): imports and exports. */
export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** queued, running, done, failed */
  state: string;
  comp_id: number;
  user_id: string;
  scope: JSONColumnType<Record<string, unknown>>;
  params: JSONColumnType<Record<string, unknown>>;
  file_name: string;
  input_key: string;
  output_key: string;
  done: number;
  total: number;
  ok_count: number;
  fail_count: number;
  checkpoint: number;
  result: JSONColumnType<Record<string, unknown>>;
  error: string;
  attempts: number;
  lease_owner: string;
  /** Milliseconds since the epoch. */
  lease_until: number;
  gmt_create: Unix;
  gmt_start: Unix | null;
  gmt_finish: Unix | null;
}

/** Refused import rows (migration 0008), written with their chunk. */
export interface JobRowErrorTable {
  job_id: number;
  row_no: number;
  uid: string;
  mac: string;
  pk: string;
  reason: string;
}

/** UID/MAC conflicts met at import or registration (migration 0008). */
export interface DeviceDuplicateTable {
  id: Generated<number>;
  uid: string;
  mac: string;
  pk: string;
  comp_id: number;
  reason: string;
  existing_device_id: number;
  import_id: number | null;
  state: number;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: Unix | null;
  gmt_create: Unix;
}

export interface DeviceEventTable {
  id: Generated<number>;
  device_id: number;
  /** The ingested event types, and `timeout` written by the heartbeat sweeper. */
  type: (typeof DEVICE_EVENT_TYPES)[number] | 'timeout';
  detail: JSONColumnType<Record<string, unknown>>;
  ts: Unix;
}

export interface DeviceLicenceTable {
  id: Generated<number>;
  code: string;
  uid: string | null;
  pk: string;
  comp_id: number;
  state: 'unused' | 'used' | 'revoked';
  batch_id: number | null;
  gmt_create: Unix;
  gmt_use: Unix | null;
  gmt_revoke: Unix | null;
}

/** One `liccode/add` call (migration 0011). */
export interface LicenceBatchTable {
  id: Generated<number>;
  pk: string;
  comp_id: number;
  count: number;
  user_id: string;
  gmt_create: Unix;
}

/** A product's firmware version (migration 0016); `count` = devices offered it. */
export interface ProductVersionTable {
  id: Generated<number>;
  pk: string;
  ver: string;
  ver_num: number;
  min_ver_num: number;
  max_ver_num: number;
  oem: number;
  link_id: string;
  link_type: number;
  batch_id: string;
  tag: string;
  type: number;
  level: number;
  state: number;
  limit: number;
  count: Generated<number>;
  details: JSONColumnType<ProductVersionDetail[]>;
  gmt_create: Unix;
  gmt_update: Unix;
}

/** One device's upgrade to one version (migration 0016). */
export interface OtaUpgradeTable {
  id: Generated<number>;
  device_id: number;
  version_id: number;
  from_ver_num: number;
  state: OtaUpgradeState;
  progress: number;
  error: string;
  gmt_offer: Unix;
  gmt_update: Unix;
  gmt_finish: Unix | null;
}

/** Device statistics rollups (migration 0009): comp_id 0 = all companies, pk '' = all products. */
export interface DeviceDailyTable {
  comp_id: number;
  pk: string;
  /** UTC day: unix seconds / 86400. */
  day: number;
  registered: number;
  activated: number;
}

/** `device_daily` per UTC calendar month (migration 0010): `month` = months since 1970-01. */
export interface DeviceMonthlyTable {
  comp_id: number;
  pk: string;
  month: number;
  registered: number;
  activated: number;
}

export interface DeviceTotalTable {
  comp_id: number;
  pk: string;
  registered: number;
  activated: number;
}

export interface DeviceCountryTable {
  comp_id: number;
  pk: string;
  country: string;
  devices: number;
}

export interface DeviceOnlineDailyTable {
  comp_id: number;
  pk: string;
  day: number;
  online_peak: number;
  online_last: number;
  gmt_sample: Unix;
}

/** The CRUD-kit tables (platform/crud.ts): id, comp_id, fields, gmt_create, gmt_update. */
interface KitTable {
  id: Generated<number>;
  comp_id: number;
  gmt_create: Unix;
  gmt_update: Unix;
}
export interface TemplateTable extends KitTable {
  lang: string;
  name: string;
  title: string;
  body: string;
  type: number;
}
export interface EventCfgTable extends KitTable {
  name: string;
  type: number;
  app_id: number;
  channels: ColumnType<number[], string, string>;
  state: number;
  remark: string;
}
export interface PushPlatformTable extends KitTable {
  name: string;
  type: number;
  platform: string;
  zone: string;
  area_type: number;
  endpoint: string;
  app_id: string;
  secret_id: string;
  secret_key: string;
  key_id: string;
  key_secret: string;
  sign_name: string;
  smtp_addr: string;
  smtp_port: number;
  ssl: number;
  user_id: string;
  password: string;
  state: number;
}
export interface MsgPlatformTable extends KitTable {
  app_id: number;
  type: number;
  access_id: string;
  access_key: string;
  secret_key: string;
  xm_ch_id: string;
  oppo_ch_id: string;
  open_type: number;
  open_param: string;
  secret_file: string;
}
export interface PushTemplateTable extends KitTable {
  name: string;
  code: string;
  lang: string;
  param: string;
  title: string;
  body: string;
  type: number;
  notify_type: number;
  mode: number;
}
export interface PushLinkTable extends KitTable {
  link_id: number;
  link_type: number;
  type: number;
  platform_id: number;
  template_id: number;
}
/** Apps (migration 0017): keys only as SHA-256 + last 4 characters; config columns `img`, `dk_limit`. */
export interface AppTable extends KitTable {
  name: string;
  type: number;
  gmt_expire: Unix;
  package_name_ios: string;
  package_name_android: string;
  key_hash_ios: string;
  key_hint_ios: string;
  key_hash_android: string;
  key_hint_android: string;
  img: Generated<string>;
  dk_limit: ColumnType<{ oem_prefix: string; pri_dk: number; pub_dk: number; ver_num: number }, string | undefined, string>;
}
export interface AppDetailTable extends KitTable {
  app_id: number;
  client_type: string;
  app_packet: string;
  rela_id: string;
  state: number;
}
export interface AppVersionTable extends KitTable {
  app_id: number;
  ver: string;
  /** Generated from `ver`: four numeric parts. */
  ver_parts: ColumnType<number[], never, never>;
  name: string;
  force: number;
  state: number;
  details: ColumnType<Record<string, unknown>[], string, string>;
}
export interface AppUrlTable extends KitTable {
  app_id: number;
  platform: string;
  lang: string;
  url: string;
}
export interface AppResourceTable extends KitTable {
  master_id: number;
  key: string;
  state: number;
  urls: ColumnType<Record<string, unknown>[], string, string>;
}
export interface PushRecordTable {
  id: ColumnType<number, never, never>;
  comp_id: number;
  channel: number;
  platform_id: number;
  template_id: number;
  event_type: number;
  recipient: string;
  lang: string;
  lang_fallback: boolean;
  title: string;
  body: string;
  params: ColumnType<Record<string, unknown>, string, string>;
  state: number;
  attempts: Generated<number>;
  error: Generated<string>;
  provider_id: Generated<string>;
  source: string;
  gmt_create: Unix;
  gmt_send: Generated<Unix>;
  next_attempt: Unix;
}

/** App users as the app side reports them (migration 0018). */
export interface UmhUserTable {
  id: Generated<number>;
  app_id: number;
  comp_id: number;
  user_id: string;
  /** upper(user_id). */
  user_key: string;
  country: Generated<string>;
  lang: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  gmt_register: Unix;
  gmt_login: Unix | null;
  active_day: number;
}

/** An app user's newest push token per provider (migration 0020). */
export interface UmhPushTokenTable {
  app_id: number;
  /** upper(user_id), as umh_user. */
  user_key: string;
  provider: string;
  token: string;
  gmt_update: Unix;
}

export interface AppUserDailyTable {
  comp_id: number;
  app_id: number;
  day: number;
  new_users: Generated<number>;
  active_users: Generated<number>;
}

export interface AppUserCountryTable {
  comp_id: number;
  app_id: number;
  country: string;
  users: Generated<number>;
}

export interface UmhDevbindTable {
  id: Generated<number>;
  app_id: number;
  comp_id: number;
  device_id: number;
  user_id: string;
  user_key: string;
  /** 1 owner, 2 shared. */
  role: number;
  owner_user_id: string;
  gmt_create: Unix;
}

/** Rows per UTC day of the three logs (log 1 alarms, 2 device logs, 3 service logs), kept by triggers. */
export interface LogDayTable {
  log: number;
  part: number;
  day: number;
  k: number;
  n: number;
}

export interface AlarmLogTable {
  id: Generated<number>;
  device_id: number;
  uid: string;
  pk: string;
  comp_id: number;
  alarm_type: number;
  text: Generated<string>;
  ts: Unix;
}

export interface DeviceLogTable {
  id: Generated<number>;
  device_id: number;
  uid: string;
  comp_id: number;
  level: number;
  text: string;
  ts: Unix;
}

export interface ServiceLogTable {
  id: Generated<number>;
  service_id: number;
  level: number;
  node: Generated<string>;
  text: string;
  ts: Unix;
}

export interface DB {
  company: CompanyTable;
  company_user_count: CompanyUserCountTable;
  app_user: UserTable;
  role: RoleTable;
  menu: MenuTable;
  role_menu: RoleMenuTable;
  user_token: UserTokenTable;
  login_key: LoginKeyTable;
  login_replay: LoginReplayTable;
  login_failure: LoginFailureTable;
  srv_resource: SrvResourceTable;
  audit_log: AuditLogTable;
  product_category: ProductCategoryTable;
  product: ProductTable;
  product_share: ProductShareTable;
  device: DeviceTable;
  device_state: DeviceStateTable;
  device_event: DeviceEventTable;
  device_licence: DeviceLicenceTable;
  licence_batch: LicenceBatchTable;
  job: JobTable;
  job_row_error: JobRowErrorTable;
  device_duplicate: DeviceDuplicateTable;
  device_block: DeviceBlockTable;
  device_daily: DeviceDailyTable;
  device_monthly: DeviceMonthlyTable;
  device_total: DeviceTotalTable;
  device_country: DeviceCountryTable;
  device_online_daily: DeviceOnlineDailyTable;
  notice_template: TemplateTable;
  msg_template: TemplateTable;
  event_cfg: EventCfgTable;
  push_platform: PushPlatformTable;
  msg_platform: MsgPlatformTable;
  push_template: PushTemplateTable;
  push_link: PushLinkTable;
  push_record: PushRecordTable;
  umh_user: UmhUserTable;
  umh_push_token: UmhPushTokenTable;
  app_user_daily: AppUserDailyTable;
  app_user_country: AppUserCountryTable;
  umh_devbind: UmhDevbindTable;
  log_day: LogDayTable;
  alarm_log: AlarmLogTable;
  device_log: DeviceLogTable;
  service_log: ServiceLogTable;
  product_version: ProductVersionTable;
  ota_upgrade: OtaUpgradeTable;
  app: AppTable;
  app_detail: AppDetailTable;
  app_version: AppVersionTable;
  app_url: AppUrlTable;
  app_resource: AppResourceTable;
}
