import { API, idsOf, RESOURCE_FIELDS, type ResourceTypeName } from '@iot/contract';
import { badParams, notFound } from '../../platform/errors.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { dataOf, deleteResources, getResources, insertResource, listResources, updateResource } from './resource.repository.js';

export const resourceEntity: AuditEntity = { idField: 'id', load: getResources };

const ANY_KIND = new Set<string>(Object.values(RESOURCE_FIELDS).flat());

/** A field of another kind is refused (406 `not_in:<type>`); a field of no kind is ignored. */
const refuseForeign = (type: ResourceTypeName, input: Record<string, unknown>) => {
  const allowed = new Set<string>(RESOURCE_FIELDS[type]);
  const foreign = Object.keys(input).filter((k) => ANY_KIND.has(k) && input[k] !== undefined && !allowed.has(k));
  if (foreign.length > 0) throw badParams(Object.fromEntries(foreign.map((k) => [k, `not_in:${type}`])));
  return allowed;
};

export const resourceRoutes: Route[] = [
  route(API.resourceList, (ctx, input) => listResources(ctx.conn, ctx.scope, input)),

  route(
    API.resourceAdd,
    async (ctx, input) => {
      refuseForeign(input.res_type, input);
      // zonebind has no name of its own: it is named by its areas.
      const name = input.res_type === 'zonebind' ? `${input.src_area} → ${input.dest_area}` : input.name;
      const id = await insertResource(ctx.conn, {
        res_type: input.res_type,
        sys: input.sys,
        name,
        data: dataOf(input.res_type, input),
        now: nowSeconds(),
      });
      return (await getResources(ctx.conn, [id]))[0];
    },
    resourceEntity,
  ),

  route(
    API.resourceSet,
    async (ctx, input) => {
      const [current] = await getResources(ctx.conn, [input.id]);
      if (!current) throw notFound('resource');
      const type = current.res_type;
      const allowed = refuseForeign(type, input);
      const data = { ...current, ...dataOf(type, input) };
      const keep = Object.fromEntries(Object.entries(data).filter(([k]) => allowed.has(k) && k !== 'sys' && k !== 'name'));
      await updateResource(ctx.conn, input.id, { sys: input.sys, name: input.name, data: keep, now: nowSeconds() });
      return (await getResources(ctx.conn, [input.id]))[0];
    },
    resourceEntity,
  ),

  route(
    API.resourceDel,
    async (ctx, input) => {
      const ids = idsOf(input);
      const found = await getResources(ctx.conn, ids);
      if (found.length !== ids.length) throw notFound('resource');
      await deleteResources(ctx.conn, ids);
      return { deleted: ids.length };
    },
    resourceEntity,
  ),
];
