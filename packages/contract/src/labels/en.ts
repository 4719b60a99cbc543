import type { LicenceState } from '../schemas/device-state.js';
import type { ImportRowReason } from '../schemas/jobs.js';

/**
 * Column headers and cell values of the files the server writes (statistics, licence codes,
 * device and device state exports, import reports), in English. zh-CN.ts and zh-TW.ts hold
 * the same keys (typed `ExportLabels`: tsc fails on a missing one). The console's own
 * messages are in apps/web/src/locales.
 */
export const en = {
  stats: {
    sheets: { summary: 'Summary', daily: 'Daily', countries: 'Countries', products: 'Products', companies: 'Companies' },
    item: 'Item',
    value: 'Value',
    from: 'From (UTC day)',
    to: 'To (UTC day)',
    registered: 'Registered',
    activated: 'Activated',
    online: 'Online (daily peak)',
    online_peak: 'Highest daily online peak',
    devices: 'Devices (all time)',
    active_devices: 'Activated devices (all time)',
    online_now: 'Online now',
    online_share: 'Online share',
    gmt_sample: 'Last sample (UTC)',
    day: 'Day',
    country: 'Country',
    count: 'Devices',
    pk: 'PK',
    product_name: 'Product',
    comp_id: 'Company ID',
    comp_name: 'Company',
  },
  licences: {
    sheet: 'Licence codes',
    columns: {
      code: 'Licence code',
      state: 'State',
      uid: 'Device UID',
      pk: 'Product key',
      comp_name: 'Company',
      batch_id: 'Batch',
      gmt_create: 'Created (UTC)',
      gmt_use: 'Used at (UTC)',
    },
    states: { unused: 'Unused', used: 'Used', revoked: 'Revoked' } satisfies Record<LicenceState, string>,
  },
  deviceExport: {
    sheet: 'devices',
    columns: {
      id: 'ID',
      uid: 'UID',
      mac: 'MAC',
      pk: 'PK',
      comp_id: 'Company ID',
      comp_name: 'Company',
      gmt_create: 'Registered (UTC)',
      online: 'Online',
      active: 'Active',
    },
  },
  stateExport: {
    sheet: 'device state',
    columns: {
      id: 'ID',
      uid: 'UID',
      pk: 'PK',
      comp_name: 'Company',
      online: 'Online',
      active: 'Active',
      network_type: 'Network type',
      vendor: 'Vendor',
      protocol: 'Protocol',
      last_online: 'Last online (UTC)',
      last_offline: 'Last offline (UTC)',
      last_seen: 'Last seen (UTC)',
      offline_reason: 'Offline reason',
      country: 'Country',
    },
  },
  appStats: {
    sheets: { summary: 'Summary', daily: 'Daily', apps: 'Apps', countries: 'Countries' },
    item: 'Item',
    value: 'Value',
    from: 'From (UTC day)',
    to: 'To (UTC day)',
    day: 'Day',
    new_users: 'New users',
    active_users: 'Active users',
    active_avg: 'Daily active users (average)',
    active_peak: 'Daily active users (peak)',
    users: 'Users (all time)',
    app_id: 'App ID',
    comp_name: 'Company',
    country: 'Country',
  },
  logExport: {
    sheet: 'device logs',
    columns: { id: 'ID', ts: 'Time (UTC)', uid: 'UID', comp_name: 'Company', level: 'Level', text: 'Text' },
    levels: { 1: 'debug', 2: 'info', 3: 'warn', 4: 'error' } as Record<number, string>,
  },
  importReport: {
    sheet: 'refused rows',
    columns: { row: 'Row', uid: 'UID', mac: 'MAC', pk: 'PK', reason_code: 'Reason code', reason: 'Reason' },
    reasons: {
      uid_required: 'UID is empty',
      uid_format: 'UID format is wrong',
      mac_format: 'MAC format is wrong',
      pk_required: 'PK is empty',
      unknown_pk: 'Unknown product (PK)',
      duplicate_in_file: 'Duplicate in this file',
      duplicate_uid: 'UID already registered',
      duplicate_mac: 'MAC already registered',
      dk_limit: 'Over the company key limit',
      formula_without_value: 'Formula without a calculated value: open and save the file in Excel, or paste the values',
    } satisfies Record<ImportRowReason, string>,
  },
  push_test: {
    title: 'Test message from {{platform}}',
    body: 'This is a test message the IoT console sent through “{{platform}}” at {{time}}.',
  },
};

export type ExportLabels = typeof en;
