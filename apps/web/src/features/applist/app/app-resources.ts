import { APP_API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** The app screen's rows, declared once from their registry entries (applist/app). */
export const appRows = defineResource({
  labels: 'apps',
  list: APP_API.appList,
  add: APP_API.appAdd,
  set: APP_API.appSet,
  del: APP_API.appDel,
  id: 'id',
});

/** Children of an app: each list is filtered by the app and refreshes with it. */
export const detailRows = defineResource({
  labels: 'apps.detail',
  list: APP_API.appDetailList,
  add: APP_API.appDetailAdd,
  set: APP_API.appDetailSet,
  del: APP_API.appDetailDel,
  id: 'id',
});

export const versionRows = defineResource({
  labels: 'apps.version',
  list: APP_API.appVerList,
  add: APP_API.appVerAdd,
  set: APP_API.appVerSet,
  del: APP_API.appVerDel,
  id: 'id',
});

export const urlRows = defineResource({
  labels: 'apps.url',
  list: APP_API.appUrlList,
  add: APP_API.appUrlAdd,
  set: APP_API.appUrlSet,
  del: APP_API.appUrlDel,
  id: 'id',
});

export const resourceRows = defineResource({
  labels: 'apps.resource',
  list: APP_API.appResourceList,
  add: APP_API.appResourceAdd,
  set: APP_API.appResourceSet,
  del: APP_API.appResourceDel,
  id: 'id',
});

export const cfgRows = defineResource({ labels: 'apps.cfg', list: APP_API.appCfgList, set: APP_API.appCfgSet, id: 'app_id' });
