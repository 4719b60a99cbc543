import { z } from 'zod';
import { ResourceType } from '../constants.js';
import { id, int, oneOf, pagingSchema, requiredText, text } from './common.js';

/**
 * Service resources (SPEC §3) in one table. `res_type` names the kind because
 * zonebind has a field called `type` of its own.
 */
const sysFields = { sys: requiredText(32), name: requiredText(64) };
const datacenterFields = {
  sys: requiredText(32),
  name: requiredText(64),
  ips: text(1024),
  zone: text(64),
  domain_prefix: text(64),
  domain: text(255),
  host: text(255),
  h5_host: text(255),
  cdn_host: text(255),
  port: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(0).max(65535)),
  ssl_port: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(0).max(65535)),
  deploy_open: oneOf([0, 1]),
  state: oneOf([1, 2]),
};
const zonebindFields = {
  sys: requiredText(32),
  src_area: requiredText(64),
  dest_area: requiredText(64),
  src_type: int(),
  dest_type: int(),
  state: oneOf([1, 2]),
  type: int(),
  remark: text(512),
};

export const RESOURCE_FIELDS = {
  sys: Object.keys(sysFields),
  datacenter: Object.keys(datacenterFields),
  zonebind: Object.keys(zonebindFields),
} as const;

/** Loose: the server sees a field of another kind and refuses it (`not_in:<type>`) as `set` does, instead of it being dropped. */
export const resourceAddInput = z.discriminatedUnion('res_type', [
  z.looseObject({ res_type: z.literal('sys'), ...sysFields }),
  z.looseObject({
    res_type: z.literal('datacenter'),
    ...datacenterFields,
    ips: datacenterFields.ips.default(''),
    zone: datacenterFields.zone.default(''),
    domain_prefix: datacenterFields.domain_prefix.default(''),
    domain: datacenterFields.domain.default(''),
    host: datacenterFields.host.default(''),
    h5_host: datacenterFields.h5_host.default(''),
    cdn_host: datacenterFields.cdn_host.default(''),
    port: datacenterFields.port.default(80),
    ssl_port: datacenterFields.ssl_port.default(443),
    deploy_open: datacenterFields.deploy_open.default(0),
    state: datacenterFields.state.default(1),
  }),
  z.looseObject({
    res_type: z.literal('zonebind'),
    ...zonebindFields,
    src_type: zonebindFields.src_type.default(0),
    dest_type: zonebindFields.dest_type.default(0),
    state: zonebindFields.state.default(1),
    type: zonebindFields.type.default(0),
    remark: zonebindFields.remark.default(''),
  }),
]);
export type ResourceAddInput = z.infer<typeof resourceAddInput>;

const allOptional = { ...sysFields, ...datacenterFields, ...zonebindFields };
export const resourceSetInput = z.object({
  id: id(),
  ...Object.fromEntries(Object.entries(allOptional).map(([k, s]) => [k, s.optional()])),
}) as z.ZodObject<{ id: ReturnType<typeof id> } & { [K in keyof typeof allOptional]: z.ZodOptional<(typeof allOptional)[K]> }>;
export type ResourceSetInput = z.infer<typeof resourceSetInput>;

export const resourceListInput = pagingSchema.extend({
  res_type: z.enum(ResourceType),
  sys: text(32).optional(),
  name: text(64).optional(),
});
export type ResourceListInput = z.infer<typeof resourceListInput>;

export const resourceRowSchema = z
  .object({ id: z.number().int(), res_type: z.enum(ResourceType), gmt_create: z.number().int(), gmt_update: z.number().int() })
  .catchall(z.unknown());
export type ResourceRow = z.infer<typeof resourceRowSchema>;
