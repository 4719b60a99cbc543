import {
  alarmLogListInput,
  alarmLogRowSchema,
  appRankInput,
  appRankRowSchema,
  appStatsInput,
  appStatsOutput,
  appUserDetailSchema,
  appUserGetInput,
  appUserListInput,
  appUserRowSchema,
  devBindListInput,
  devBindRowSchema,
  deviceLogListInput,
  deviceLogRowSchema,
  logExportAddInput,
  serviceLogListInput,
  serviceLogRowSchema,
} from '../schemas/appdata.js';
import { jobListInput, jobRowSchema } from '../schemas/jobs.js';
import { type ApiDef, def } from './define.js';

const LOG_MENUS = ['applist/log_list'] as const;

/**
 * What the app side reports (issue 8): app users, bindings and shares, alarms, device and
 * service logs and their export, app-user statistics. Written through `v2/iot/ingest/events`.
 */
export const APPDATA_API = {
  appUserList: def(
    'v2/umh/admin/user/list',
    ['applist/user'],
    'list',
    appUserListInput,
    'App users of apps of companies in scope, newest registration first; email and phone masked',
    appUserRowSchema,
  ),
  appUserGet: def(
    'v2/umh/admin/user/get',
    ['applist/user'],
    'get',
    appUserGetInput,
    'One app user in scope, email and phone whole, with the devices it owns and those shared with it',
    appUserDetailSchema,
  ),
  devBindList: def(
    'v2/umh/admin/devbind/list',
    ['applist/dev'],
    'list',
    devBindListInput,
    "Device bindings (owners) and shares of devices in scope (the device's company), newest first",
    devBindRowSchema,
  ),
  alarmLogList: def(
    'v2/umh/admin/alarmlog/list',
    ['applist/alarm'],
    'list',
    alarmLogListInput,
    'Device alarms (types 1-7) of devices in scope, newest first (keyset with after_ts/after_id; deep pages from day counters)',
    alarmLogRowSchema,
  ),
  deviceLogList: def(
    'v2/iot/admin/log/list',
    LOG_MENUS,
    'list',
    deviceLogListInput,
    'Device log lines of devices in scope, newest first (as the alarm list)',
    deviceLogRowSchema,
  ),
  serviceLogList: def(
    'v2/kls/admin/log/list',
    LOG_MENUS,
    'list',
    serviceLogListInput,
    "Platform services' log lines (SPEC §9 server type ids), newest first; platform rows: the super administrator's scope only",
    serviceLogRowSchema,
  ),
  logExportAdd: def(
    'v2/iot/admin/log/export/add',
    LOG_MENUS,
    'add',
    logExportAddInput,
    'Start an xlsx export of device log lines (range required, at most three months)',
    jobRowSchema,
  ),
  logExportList: def('v2/iot/admin/log/export/list', LOG_MENUS, 'list', jobListInput, 'Device log export jobs in scope', jobRowSchema),
  appStatistics: def(
    'v2/umh/admin/user/statistics/get',
    ['info/user'],
    'get',
    appStatsInput,
    'New and active app users per day, per app, top 10 countries (rollups)',
    appStatsOutput,
  ),
  appRank: def(
    'v2/user/data/app/list',
    ['info/user'],
    'list',
    appRankInput,
    "The dashboard's top 5 apps in scope by daily active users over the last 30 days",
    appRankRowSchema,
  ),
} as const satisfies Record<string, ApiDef>;
