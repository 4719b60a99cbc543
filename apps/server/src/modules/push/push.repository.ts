import { API, PROVIDERS_OF_CHANNEL, type PushProvider } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import { defineCrud } from '../../platform/crud.js';
import type { Conn } from '../../platform/db/database.js';
import { badParams } from '../../platform/errors.js';
import { contains, eq } from '../../platform/list.js';

/** Templates of one language per row; filtered by language, type and name (contains). */
const templateFilters = { lang: eq('t.lang'), type: eq('t.type'), name: contains('t.name') };
const templateSorts = { name: 't.name', lang: 't.lang', type: 't.type' };

export const noticeTemplates = defineCrud(
  { list: API.noticeTemplateList, add: API.noticeTemplateAdd, set: API.noticeTemplateSet, del: API.noticeTemplateDel },
  { table: 'notice_template', what: 'template', owned: true, filters: templateFilters, sorts: templateSorts },
);

export const msgTemplates = defineCrud(
  { list: API.msgTemplateList, add: API.msgTemplateAdd, set: API.msgTemplateSet, del: API.msgTemplateDel },
  { table: 'msg_template', what: 'template', owned: true, filters: templateFilters, sorts: templateSorts },
);

export const eventCfgs = defineCrud(
  { list: API.eventCfgList, add: API.eventCfgAdd, set: API.eventCfgSet, del: API.eventCfgDel },
  {
    table: 'event_cfg',
    what: 'event config',
    owned: true,
    filters: { type: eq('t.type'), app_id: eq('t.app_id'), state: eq('t.state') },
    sorts: { name: 't.name', type: 't.type' },
  },
);

export const pushPlatforms = defineCrud(
  { list: API.pushPlatformList, add: API.pushPlatformAdd, set: API.pushPlatformSet, del: API.pushPlatformDel },
  {
    table: 'push_platform',
    what: 'platform',
    owned: true,
    filters: { name: contains('t.name'), type: eq('t.type'), state: eq('t.state') },
    sorts: { name: 't.name', type: 't.type', platform: 't.platform' },
    // The channel decides who receives (a phone, an address, a device): its provider must send over it.
    check: (_ctx, next) => {
      const providers: readonly PushProvider[] = PROVIDERS_OF_CHANNEL[next.type as keyof typeof PROVIDERS_OF_CHANNEL] ?? [];
      if (!providers.includes(next.platform as PushProvider)) throw badParams({ platform: 'channel' });
    },
  },
);

export const msgPlatforms = defineCrud(
  { list: API.msgPlatformList, add: API.msgPlatformAdd, set: API.msgPlatformSet, del: API.msgPlatformDel },
  { table: 'msg_platform', what: 'platform', owned: true, filters: { app_id: eq('t.app_id'), type: eq('t.type') } },
);

export const pushTemplates = defineCrud(
  { list: API.pushTemplateList, add: API.pushTemplateAdd, set: API.pushTemplateSet, del: API.pushTemplateDel },
  {
    table: 'push_template',
    what: 'template',
    owned: true,
    filters: { name: contains('t.name'), code: contains('t.code'), lang: eq('t.lang'), type: eq('t.type') },
    sorts: { name: 't.name', code: 't.code', lang: 't.lang' },
    unique: [
      {
        field: 'code',
        index: 'push_template_code_key',
        message: 'The company already has a template with this code for this language and channel',
        among: (next) => sql<SqlBool>`comp_id = ${next.comp_id} and code = ${next.code} and lang = ${next.lang} and type = ${next.type}`,
      },
    ],
  },
);

export const pushLinks = defineCrud(
  { list: API.pushLinkList, add: API.pushLinkAdd, set: API.pushLinkSet, del: API.pushLinkDel },
  {
    table: 'push_link',
    what: 'link',
    owned: true,
    filters: { link_id: eq('t.link_id'), link_type: eq('t.link_type'), type: eq('t.type') },
    refs: { platform_id: pushPlatforms, template_id: pushTemplates },
    unique: [
      {
        field: 'platform_id',
        index: 'push_link_key',
        message: 'This event of this app or product already goes through this platform',
        among: (next) =>
          sql<SqlBool>`link_type = ${next.link_type} and link_id = ${next.link_id} and type = ${next.type} and platform_id = ${next.platform_id}`,
      },
    ],
    select: (conn: Conn) =>
      conn
        .selectFrom('push_link as t')
        .leftJoin('company as c', 'c.comp_id', 't.comp_id')
        .leftJoin('push_platform as p', 'p.id', 't.platform_id')
        .leftJoin('push_template as pt', 'pt.id', 't.template_id')
        .selectAll('t')
        .select([
          'c.comp_name',
          sql<string>`coalesce(p.name, '')`.as('platform_name'),
          sql<string>`coalesce(pt.name, '')`.as('template_name'),
        ]) as never,
  },
);
