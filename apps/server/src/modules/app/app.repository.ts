import crypto from 'node:crypto';
import {
  API,
  type AppCfgRow,
  type AppPlatform,
  AppVerState,
  type AppVersionRow,
  appVersionParts,
  fileUrlOf,
  maskedAppKey,
} from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import { defineCrud } from '../../platform/crud.js';
import type { Conn } from '../../platform/db/database.js';
import { contains, defineList, eq, escapeLike } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

// ---- keys ----------------------------------------------------------------------------------

/** A new app key: 24 bytes of the CSPRNG as base64url (32 characters, 192 bits). */
export const newAppKey = () => crypto.randomBytes(24).toString('base64url');
/** What is stored of a key: its SHA-256 (the key is random enough that no salt or slow hash is needed) and its last 4 characters. */
export const storedKey = (key: string) => ({ hash: crypto.createHash('sha256').update(key).digest('hex'), hint: key.slice(-4) });

// ---- app base --------------------------------------------------------------------------------

type StoredApp = Record<string, unknown> & { id: number; key_hint_ios: string; key_hint_android: string; comp_name: string };

/** Package names identify an app on the stores: one app each, across the platform (409); empty is no name. */
const onePackage = (field: 'package_name_ios' | 'package_name_android') => ({
  field,
  message: 'Another app has this package name',
  index: field === 'package_name_ios' ? 'app_package_ios_key' : 'app_package_android_key',
  among: (next: Record<string, unknown>) => {
    const value = next[field];
    return typeof value === 'string' && value !== '' ? sql<SqlBool>`${sql.ref(field)} = ${value}` : sql<SqlBool>`false`;
  },
});

export const apps = defineCrud(
  { list: API.appList, add: API.appAdd, set: API.appSet, del: API.appDel },
  {
    table: 'app',
    what: 'app',
    owned: true,
    filters: { name: contains('t.name'), type: eq('t.type') },
    sorts: { name: 't.name', type: 't.type', comp_id: 't.comp_id', gmt_expire: 't.gmt_expire' },
    toRow: (r) => {
      const a = r as StoredApp;
      return {
        id: a.id,
        name: a.name as string,
        type: a.type as number,
        gmt_expire: Number(a.gmt_expire),
        package_name_ios: a.package_name_ios as string,
        package_name_android: a.package_name_android as string,
        comp_id: a.comp_id as number,
        comp_name: a.comp_name,
        gmt_create: Number(a.gmt_create),
        gmt_update: Number(a.gmt_update),
        app_key_ios: maskedAppKey(a.key_hint_ios),
        app_key_android: maskedAppKey(a.key_hint_android),
      };
    },
    unique: [onePackage('package_name_ios'), onePackage('package_name_android')],
    // Both keys are made here and answered in full by this add only.
    generate: () => {
      const ios = newAppKey();
      const android = newAppKey();
      const si = storedKey(ios);
      const sa = storedKey(android);
      return {
        columns: { key_hash_ios: si.hash, key_hint_ios: si.hint, key_hash_android: sa.hash, key_hint_android: sa.hint },
        revealed: { app_key_ios: ios, app_key_android: android },
      };
    },
  },
);

/** Replaces one platform's key of an app; answers nothing (the caller holds the new key). */
export const replaceAppKey = async (conn: Conn, id: number, platform: AppPlatform, key: string, now: number) => {
  const { hash, hint } = storedKey(key);
  await conn
    .updateTable('app')
    .set(
      platform === 'ios'
        ? { key_hash_ios: hash, key_hint_ios: hint, gmt_update: now }
        : { key_hash_android: hash, key_hint_android: hint, gmt_update: now },
    )
    .where('id', '=', id)
    .execute();
};

/** The app in scope whose key (by its hash) or package name is given, and which platform matched. */
export const findAppId = async (conn: Conn, scope: Scope, by: { app_key?: string | undefined; package_name?: string | undefined }) => {
  const hash = by.app_key ? storedKey(by.app_key).hash : null;
  const platformOf = (r: { key_hash_ios: string; package_name_ios: string }): AppPlatform =>
    hash ? (r.key_hash_ios === hash ? 'ios' : 'android') : r.package_name_ios === by.package_name ? 'ios' : 'android';
  const row = await conn
    .selectFrom('app as t')
    .leftJoin('company as c', 'c.comp_id', 't.comp_id')
    .select(['t.id', 't.name', 't.comp_id', 't.key_hash_ios', 't.package_name_ios', sql<string>`coalesce(c.comp_name, '')`.as('comp_name')])
    .where(inScope(scope, 't.comp_id'))
    .where((eb) =>
      hash
        ? eb.or([eb('t.key_hash_ios', '=', hash), eb('t.key_hash_android', '=', hash)])
        : eb.or([eb('t.package_name_ios', '=', by.package_name ?? ''), eb('t.package_name_android', '=', by.package_name ?? '')]),
    )
    .orderBy('t.id')
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, comp_id: row.comp_id, comp_name: row.comp_name, platform: platformOf(row) } : null;
};

// ---- children of an app ----------------------------------------------------------------------

/** Rows of an app's child table with the app's company name and the app's name. */
const childSelect = (table: 'app_detail' | 'app_version' | 'app_url' | 'app_resource', appColumn: 'app_id' | 'master_id') => (conn: Conn) =>
  conn
    .selectFrom(`${table} as t` as 'app_detail as t')
    .leftJoin('company as c', 'c.comp_id', 't.comp_id')
    .leftJoin('app as a', 'a.id', `t.${appColumn}` as 't.app_id')
    .selectAll('t')
    .select([sql<string>`coalesce(c.comp_name, '')`.as('comp_name'), sql<string>`coalesce(a.name, '')`.as('app_name')]) as never;

export const appDetails = defineCrud(
  { list: API.appDetailList, add: API.appDetailAdd, set: API.appDetailSet, del: API.appDetailDel },
  {
    table: 'app_detail',
    what: 'app detail',
    parent: { field: 'app_id', of: apps },
    filters: { app_id: eq('t.app_id'), client_type: eq('t.client_type'), state: eq('t.state') },
    sorts: { client_type: 't.client_type' },
    defaultSort: { column: 't.id', direction: 'asc' },
    select: childSelect('app_detail', 'app_id'),
    unique: [
      {
        field: 'client_type',
        index: 'app_detail_app_id_client_type_key',
        message: 'The app already has a detail for this client type',
        among: (next) => sql<SqlBool>`app_id = ${next.app_id} and client_type = ${next.client_type}`,
      },
    ],
  },
);

const verPartsOf = (ver: string) => {
  const [a, b, c, d] = appVersionParts(ver);
  return sql`array[${a}, ${b}, ${c}, ${d}]::integer[]`;
};

export const appVersions = defineCrud(
  { list: API.appVerList, add: API.appVerAdd, set: API.appVerSet, del: API.appVerDel },
  {
    table: 'app_version',
    what: 'app version',
    parent: { field: 'app_id', of: apps },
    filters: {
      app_id: eq('t.app_id'),
      state: eq('t.state'),
      // A prefix of the version as typed (`1.2` finds 1.2.0 and 1.2.5).
      ver: (v: string) => (v === '' ? null : sql<SqlBool>`t.ver like ${`${escapeLike(v)}%`}`),
    },
    // Versions sort by their numbers, newest first.
    sorts: { ver: 't.ver_parts', state: 't.state' },
    defaultSort: { column: 't.ver_parts', direction: 'desc' },
    select: childSelect('app_version', 'app_id'),
    toRow: (r) => {
      const { ver_parts: _parts, ...row } = r as unknown as AppVersionRow & { ver_parts: unknown };
      return { ...row, details: (row.details as AppVersionRow['details']).map((d) => ({ ...d, ver_id: row.id })) } as AppVersionRow;
    },
    unique: [
      {
        field: 'ver',
        index: 'app_version_app_id_ver_parts_key',
        message: 'The app already has this version',
        among: (next) => sql<SqlBool>`app_id = ${next.app_id} and ver_parts = ${verPartsOf(next.ver as string)}`,
      },
    ],
  },
);

export const appUrls = defineCrud(
  { list: API.appUrlList, add: API.appUrlAdd, set: API.appUrlSet, del: API.appUrlDel },
  {
    table: 'app_url',
    what: 'app url',
    parent: { field: 'app_id', of: apps },
    filters: { app_id: eq('t.app_id'), platform: eq('t.platform') },
    sorts: { platform: 't.platform', lang: 't.lang' },
    defaultSort: { column: 't.id', direction: 'asc' },
    select: childSelect('app_url', 'app_id'),
    unique: [
      {
        field: 'lang',
        index: 'app_url_app_id_platform_lang_key',
        message: 'The app already has a url for this platform and language',
        among: (next) => sql<SqlBool>`app_id = ${next.app_id} and platform = ${next.platform} and lower(lang) = lower(${next.lang})`,
      },
    ],
  },
);

export const appResources = defineCrud(
  { list: API.appResourceList, add: API.appResourceAdd, set: API.appResourceSet, del: API.appResourceDel },
  {
    table: 'app_resource',
    what: 'app resource',
    parent: { field: 'master_id', of: apps },
    filters: { master_id: eq('t.master_id'), key: contains('t.key'), state: eq('t.state') },
    sorts: { key: 't.key' },
    defaultSort: { column: 't.key', direction: 'asc' },
    select: childSelect('app_resource', 'master_id'),
    unique: [
      {
        field: 'key',
        index: 'app_resource_master_id_key_key',
        message: 'The app already has a resource with this key',
        among: (next) => sql<SqlBool>`master_id = ${next.master_id} and key = ${next.key}`,
      },
    ],
  },
);

// ---- config --------------------------------------------------------------------------------------

const selectCfg = (conn: Conn) =>
  conn
    .selectFrom('app as t')
    .leftJoin('company as c', 'c.comp_id', 't.comp_id')
    .select(['t.id', 't.name', 't.comp_id', 't.img', 't.dk_limit', 't.gmt_update', sql<string>`coalesce(c.comp_name, '')`.as('comp_name')]);
type StoredCfg = Awaited<ReturnType<ReturnType<typeof selectCfg>['executeTakeFirstOrThrow']>>;

const toCfgRow = (r: StoredCfg): AppCfgRow => ({
  app_id: r.id,
  name: r.name,
  comp_id: r.comp_id,
  comp_name: r.comp_name,
  img: r.img,
  img_url: fileUrlOf(r.img),
  dk_limit: r.dk_limit,
  gmt_update: Number(r.gmt_update),
});

/** One config per app (its columns on the app row), newest app first. */
export const listAppCfgs = defineList(API.appCfgList, {
  from: (conn) => conn.selectFrom('app as t'),
  scope: 't.comp_id',
  filters: { app_id: eq('t.id'), comp_id: eq('t.comp_id'), name: contains('t.name') },
  sorts: { app_id: 't.id', name: 't.name', gmt_update: 't.gmt_update' },
  defaultSort: { column: 't.id', direction: 'desc' },
  key: 't.id',
  select: selectCfg,
  toRow: toCfgRow,
});

export const getAppCfgs = async (conn: Conn, scope: Scope, ids: number[]): Promise<AppCfgRow[]> =>
  ids.length === 0
    ? []
    : (await selectCfg(conn).where('t.id', 'in', ids).where(inScope(scope, 't.comp_id')).orderBy('t.id').execute()).map(toCfgRow);

export const updateAppCfg = async (conn: Conn, appId: number, values: { img?: string; dk_limit?: AppCfgRow['dk_limit'] }, now: number) => {
  await conn
    .updateTable('app')
    .set({
      ...(values.img !== undefined ? { img: values.img } : {}),
      ...(values.dk_limit !== undefined ? { dk_limit: JSON.stringify(values.dk_limit) } : {}),
      gmt_update: now,
    })
    .where('id', '=', appId)
    .execute();
};

// ---- what the public download link reads -----------------------------------------------------------

/** An app (any company: the link is public) with its store urls, or null. */
export const getDownloadApp = async (conn: Conn, appId: number) => {
  const app = await conn.selectFrom('app').select(['id', 'name', 'gmt_expire']).where('id', '=', appId).executeTakeFirst();
  if (!app) return null;
  const urls = await conn.selectFrom('app_url').select(['platform', 'lang', 'url']).where('app_id', '=', appId).orderBy('id').execute();
  return { id: app.id, name: app.name, gmtExpire: Number(app.gmt_expire), urls };
};

/** The newest released version of an app, or the released version `ver` (numerically equal). */
export const getReleasedVersion = async (conn: Conn, appId: number, ver?: string) => {
  let q = conn
    .selectFrom('app_version')
    .select(['id', 'ver', 'name', 'force', 'details'])
    .where('app_id', '=', appId)
    .where('state', '=', AppVerState.RELEASE);
  if (ver) q = q.where(sql<SqlBool>`ver_parts = ${verPartsOf(ver)}`);
  const row = await q.orderBy('ver_parts', 'desc').limit(1).executeTakeFirst();
  return row ? { ...row, details: row.details as unknown as AppVersionRow['details'] } : null;
};
