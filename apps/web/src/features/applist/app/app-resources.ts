import { API } from '@iot/contract';
import { defineResource } from '../../../lib/resource';

/** The app screen's rows, declared once from their registry entries (applist/app). */
export const appRows = defineResource({
  labels: 'apps',
  list: API.appList,
  add: API.appAdd,
  set: API.appSet,
  del: API.appDel,
  id: 'id',
});

/** Children of an app: each list is filtered by the app and refreshes with it. */
export const detailRows = defineResource({
  labels: 'apps.detail',
  list: API.appDetailList,
  add: API.appDetailAdd,
  set: API.appDetailSet,
  del: API.appDetailDel,
  id: 'id',
});

export const versionRows = defineResource({
  labels: 'apps.version',
  list: API.appVerList,
  add: API.appVerAdd,
  set: API.appVerSet,
  del: API.appVerDel,
  id: 'id',
});

export const urlRows = defineResource({
  labels: 'apps.url',
  list: API.appUrlList,
  add: API.appUrlAdd,
  set: API.appUrlSet,
  del: API.appUrlDel,
  id: 'id',
});

export const resourceRows = defineResource({
  labels: 'apps.resource',
  list: API.appResourceList,
  add: API.appResourceAdd,
  set: API.appResourceSet,
  del: API.appResourceDel,
  id: 'id',
});

export const cfgRows = defineResource({ labels: 'apps.cfg', list: API.appCfgList, set: API.appCfgSet, id: 'app_id' });
