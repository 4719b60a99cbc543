import { API, RESOURCE_FIELDS, type ResourceRow, type ResourceTypeName } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';
import { contains, defineList, eq } from '../../platform/list.js';

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

const selectResources = (conn: Conn) => conn.selectFrom('srv_resource as r').selectAll('r');

/** Default order: newest first. */
export const listResources = defineList(API.resourceList, {
  from: (conn) => conn.selectFrom('srv_resource as r'),
  filters: { res_type: eq('r.res_type'), sys: contains('r.sys'), name: contains('r.name') },
  sorts: { id: 'r.id', sys: 'r.sys', name: 'r.name', gmt_create: 'r.gmt_create' },
  defaultSort: { column: 'r.id', direction: 'desc' },
  key: 'r.id',
  select: selectResources,
  toRow: (r) => toRow(r as Stored),
});

export const getResources = async (conn: Conn, ids: number[]): Promise<ResourceRow[]> =>
  ids.length === 0 ? [] : (await selectResources(conn).where('r.id', 'in', ids).execute()).map((r) => toRow(r as Stored));

/** A type's fields other than the indexed `sys` and `name`, stored as JSON. */
export const dataOf = (type: ResourceTypeName, input: Record<string, unknown>) => {
  const data: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS[type])
    if (field !== 'sys' && field !== 'name' && input[field] !== undefined) data[field] = input[field];
  return data;
};

export const insertResource = async (
  conn: Conn,
  values: { res_type: ResourceTypeName; sys: string; name: string; data: Record<string, unknown>; now: number },
) =>
  (
    await conn
      .insertInto('srv_resource')
      .values({
        res_type: values.res_type,
        sys: values.sys,
        name: values.name,
        data: JSON.stringify(values.data),
        gmt_create: values.now,
        gmt_update: values.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

export const updateResource = async (
  conn: Conn,
  id: number,
  values: { sys?: string | undefined; name?: string | undefined; data: Record<string, unknown>; now: number },
) => {
  await conn
    .updateTable('srv_resource')
    .set({
      ...(values.sys !== undefined ? { sys: values.sys } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      data: JSON.stringify(values.data),
      gmt_update: values.now,
    })
    .where('id', '=', id)
    .execute();
};

export const deleteResources = async (conn: Conn, ids: number[]) => {
  await conn.deleteFrom('srv_resource').where('id', 'in', ids).execute();
};
