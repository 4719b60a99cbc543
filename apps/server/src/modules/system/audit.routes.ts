import { API, type AuditRow, resolvePaging } from '@iot/contract';
import { inScope } from '../../platform/scope.js';
import { orderTerm, sortOf } from '../../platform/sorting.js';
import { type Route, route } from '../../platform/transport.js';

/** The audit log, scoped by the acting user's company. Newest first. */
export const auditRoutes: Route[] = [
  route(API.auditList, async (ctx, input) => {
    const { offset, pageSize } = resolvePaging(input);
    const sort = sortOf(
      input,
      { id: 'a.id', gmt_create: 'a.gmt_create', user_id: 'a.user_id', path: 'a.path' },
      { column: 'a.id', direction: 'desc' },
    );
    let q = ctx.conn.selectFrom('audit_log as a').where(inScope(ctx.scope, 'a.comp_id'));
    if (input.user_id) q = q.where('a.user_id', 'ilike', `%${input.user_id}%`);
    if (input.comp_id) q = q.where('a.comp_id', '=', input.comp_id);
    if (input.path) q = q.where('a.path', 'like', `%${input.path}%`);
    if (input.action) q = q.where('a.action', '=', input.action);
    if (input.target_id) q = q.where('a.target_id', '=', input.target_id);
    if (input.gmt_start !== undefined) q = q.where('a.gmt_create', '>=', input.gmt_start);
    if (input.gmt_end !== undefined) q = q.where('a.gmt_create', '<', input.gmt_end);
    const [rows, total] = await Promise.all([
      q
        .leftJoin('company as c', 'c.comp_id', 'a.comp_id')
        .select([
          'a.id',
          'a.user_id',
          'a.comp_id',
          'c.comp_name',
          'a.path',
          'a.action',
          'a.target_id',
          'a.changes',
          'a.ip',
          'a.request_id',
          'a.gmt_create',
        ])
        .orderBy(orderTerm(sort))
        .orderBy('a.id', sort.direction)
        .limit(pageSize)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as unknown as AuditRow[], count: Number(total.n) };
  }),
];
