import { API, idsOf, RESOURCE_FIELDS, type ResourceRow, type ResourceTypeName, resolvePaging } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';
import { badParams, notFound } from '../../platform/errors.js';
import { orderTerm, sortOf } from '../../platform/sorting.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';

/** Service resources are platform-wide (not company-owned): only their menu key guards them. */
type Stored = {
  id: number;
  res_type: string;
  sys: string;
  name: string;
  data: Record<string, unknown>;
  gmt_create: number;
  gmt_update: number;
};

const toRow = (r: Stored): ResourceRow => ({
  ...r.data,
  id: r.id,
  res_type: r.res_type as ResourceTypeName,
  sys: r.sys,
  name: r.name,
  gmt_create: r.gmt_create,
  gmt_update: r.gmt_update,
});

const getResources = async (conn: Conn, ids: number[]) =>
  ids.length === 0 ? [] : ((await conn.selectFrom('srv_resource').selectAll().where('id', 'in', ids).execute()) as Stored[]).map(toRow);

/** Splits a payload into indexed columns and the type's other fields. */
const split = (type: ResourceTypeName, input: Record<string, unknown>) => {
  const data: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS[type])
    if (field !== 'sys' && field !== 'name' && input[field] !== undefined) data[field] = input[field];
  return data;
};

export const resourceEntity: AuditEntity = { idField: 'id', load: getResources };

export const resourceRoutes: Route[] = [
  route(API.resourceList, async (ctx, input) => {
    const { offset, pageSize } = resolvePaging(input);
    const sort = sortOf(input, { id: 'id', sys: 'sys', name: 'name', gmt_create: 'gmt_create' }, { column: 'id', direction: 'desc' });
    let q = ctx.conn.selectFrom('srv_resource').where('res_type', '=', input.res_type);
    if (input.sys) q = q.where('sys', 'ilike', `%${input.sys}%`);
    if (input.name) q = q.where('name', 'ilike', `%${input.name}%`);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy(orderTerm(sort)).orderBy('id', sort.direction).limit(pageSize).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: (rows as Stored[]).map(toRow), count: Number(total.n) };
  }),

  route(
    API.resourceAdd,
    async (ctx, input) => {
      const now = nowSeconds();
      // zonebind has no name of its own: it is named by its areas.
      const name = 'name' in input ? input.name : `${input.src_area} → ${input.dest_area}`;
      const { id } = await ctx.conn
        .insertInto('srv_resource')
        .values({
          res_type: input.res_type,
          sys: input.sys,
          name,
          data: JSON.stringify(split(input.res_type, input)),
          gmt_create: now,
          gmt_update: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
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
      const allowed = new Set<string>(RESOURCE_FIELDS[type]);
      const foreign = Object.keys(input).filter((k) => k !== 'id' && input[k as keyof typeof input] !== undefined && !allowed.has(k));
      if (foreign.length > 0) throw badParams(Object.fromEntries(foreign.map((k) => [k, `not_in:${type}`])));
      const data = { ...current, ...split(type, input) };
      const keep = Object.fromEntries(Object.entries(data).filter(([k]) => allowed.has(k) && k !== 'sys' && k !== 'name'));
      await ctx.conn
        .updateTable('srv_resource')
        .set({
          ...(input.sys !== undefined ? { sys: input.sys } : {}),
          ...(input.name !== undefined ? { name: input.name } : {}),
          data: JSON.stringify(keep),
          gmt_update: nowSeconds(),
        })
        .where('id', '=', input.id)
        .execute();
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
      await ctx.conn.deleteFrom('srv_resource').where('id', 'in', ids).execute();
      return { deleted: ids.length };
    },
    resourceEntity,
  ),
];
