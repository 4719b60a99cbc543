import { API, exportLabelsOf, render, sampleParams } from '@iot/contract';
import { badParams, notFound } from '../../platform/errors.js';
import { type Route, route } from '../../platform/transport.js';
import { sendTest } from './dispatch.service.js';
import { eventCfgs, msgPlatforms, msgTemplates, noticeTemplates, pushLinks, pushPlatforms, pushTemplates } from './push.repository.js';
import { getRecord, listAlarmPushes, listPushRecords } from './record.repository.js';

/** The title and body of a rendered template. */
const pick = ({ title, body }: { title: string; body: string }) => ({ title, body });

export const pushRoutes: Route[] = [
  ...pushPlatforms.routes,
  ...msgPlatforms.routes,
  ...pushTemplates.routes,
  ...pushLinks.routes,
  ...noticeTemplates.routes,
  ...msgTemplates.routes,
  ...eventCfgs.routes,
  route(API.pushRecordList, (ctx, input) => listPushRecords(ctx.conn, ctx.scope, input)),
  route(API.alarmPushList, (ctx, input) => listAlarmPushes(ctx.conn, ctx.scope, input)),

  route(API.pushPlatformTest, async (ctx, input) => {
    const [platform] = await pushPlatforms.get(ctx.conn, ctx.scope, [input.id]);
    if (!platform) throw notFound('platform');
    const template = input.template_id ? (await pushTemplates.get(ctx.conn, ctx.scope, [input.template_id]))[0] : undefined;
    if (input.template_id && !template) throw badParams({ template_id: 'not_found' });
    const lang = input.lang ?? template?.lang ?? ctx.lang;
    const labels = exportLabelsOf(ctx.lang).push_test;
    const params = template ? sampleParams(template.param) : { platform: platform.name, time: new Date().toISOString() };
    const id = await sendTest(ctx.services, ctx.conn, {
      comp_id: platform.comp_id,
      channel: platform.type,
      platform_id: platform.id,
      template_id: template?.id ?? 0,
      event_type: 0,
      recipient: input.recipient,
      lang,
      lang_fallback: false,
      ...pick(render({ title: template?.title ?? labels.title, body: template?.body ?? labels.body }, params, { lang })),
      params,
      source: 'test',
    });
    return getRecord(ctx.conn, id);
  }),

  route(API.pushTemplateTest, async (ctx, input) => {
    const [template] = await pushTemplates.get(ctx.conn, ctx.scope, [input.id]);
    if (!template) throw notFound('template');
    const [platform] = await pushPlatforms.get(ctx.conn, ctx.scope, [input.platform_id]);
    if (!platform) throw badParams({ platform_id: 'not_found' });
    if (platform.type !== template.type)
      throw badParams({ platform_id: 'channel_mismatch' }, 'The platform sends another channel than the template');
    const params = sampleParams(template.param);
    const id = await sendTest(ctx.services, ctx.conn, {
      comp_id: template.comp_id,
      channel: template.type,
      platform_id: platform.id,
      template_id: template.id,
      event_type: 0,
      recipient: input.recipient,
      lang: template.lang,
      lang_fallback: false,
      ...pick(render(template, params, { lang: template.lang })),
      params,
      source: 'test',
    });
    return getRecord(ctx.conn, id);
  }),
];
