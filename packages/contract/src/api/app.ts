import {
  appCfgListInput,
  appCfgRow,
  appCfgSetInput,
  appDetailSchemas,
  appIdGetInput,
  appIdGetOutput,
  appKeyRotateInput,
  appResourceSchemas,
  appSchemas,
  appUrlSchemas,
  appVerSchemas,
} from '../schemas/app.js';
import { crudApi, def } from './define.js';

const APP_MENUS = ['applist/app'] as const;
/** SPEC's OTA area names its verbs query, add, modify, delete. */
const OTA_VERBS = { list: 'query', add: 'add', set: 'modify', del: 'delete' } as const;

/** Apps: base, keys, details per client, versions, store urls, resources, config (issue 8). */
export const APP_API = {
  ...crudApi('app', 'v2/user/app', APP_MENUS, appSchemas, 'Apps (the add answer holds both new app keys in full, once)'),
  appKeyRotate: def(
    'v2/user/app/key/rotate',
    APP_MENUS,
    'action',
    appKeyRotateInput,
    'A new app key for one platform, answered in full once; the old key stops working at once',
    appSchemas.row,
  ),
  appIdGet: def(
    'user/appid/get',
    APP_MENUS,
    'get',
    appIdGetInput,
    'The app (in scope) an app key or a package name belongs to',
    appIdGetOutput,
  ),
  ...crudApi('appDetail', 'user/app/detail', APP_MENUS, appDetailSchemas, 'App details per client type', {
    list: 'query',
    add: 'add',
    set: 'set',
    del: 'del',
  }),
  ...crudApi('appVer', 'ota/app/ver', APP_MENUS, appVerSchemas, 'App versions (per-language details)', OTA_VERBS),
  ...crudApi('appUrl', 'ota/app/url', APP_MENUS, appUrlSchemas, 'App store urls per platform and language', OTA_VERBS),
  ...crudApi('appResource', 'v2/user/app/resource', APP_MENUS, appResourceSchemas, 'App image/url resources per language'),
  appCfgList: def('v2/user/admin/appcfg/list', APP_MENUS, 'list', appCfgListInput, 'App configs (image, device-key limits)', appCfgRow),
  appCfgSet: def(
    'v2/user/admin/appcfg/set',
    APP_MENUS,
    'set',
    appCfgSetInput,
    "Change an app's config (absent fields kept; a change of the limits counts ver_num up)",
    appCfgRow,
  ),
};
