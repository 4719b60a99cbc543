import { API, type DuplicateRow, type DuplicateSetInput, DuplicateState, ErrorCode, normalizeMac } from '@iot/contract';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { defineList, eq, upperPrefix } from '../../platform/list.js';
import { inScope, isCompanyInScope } from '../../platform/scope.js';
import { nowSeconds } from '../../platform/time.js';
import type { AuditEntity } from '../../platform/transport.js';
import { lockCompanyKeys } from './device.repository.js';

export interface NewDuplicate {
  uid: string;
  mac: string;
  pk: string;
  comp_id: number;
  reason: 'duplicate_uid' | 'duplicate_mac';
  existing_device_id: number;
  import_id: number | null;
}

/**
 * Records UID/MAC conflicts for product/dev_dup, in the caller's transaction (an import
 * chunk, or a registration that wants its refusal kept). Pending, unresolved.
 */
export const recordDuplicates = async (conn: Conn, rows: NewDuplicate[]): Promise<void> => {
  if (rows.length === 0) return;
  const now = nowSeconds();
  await conn
    .insertInto('device_duplicate')
    .values(rows.map((r) => ({ ...r, state: DuplicateState.PENDING, gmt_create: now })))
    .execute();
};

const selectDuplicates = (conn: Conn) =>
  conn
    .selectFrom('device_duplicate as x')
    .leftJoin('company as c', 'c.comp_id', 'x.comp_id')
    .leftJoin('device as d', 'd.id', 'x.existing_device_id')
    .leftJoin('company as dc', 'dc.comp_id', 'd.comp_id')
    .select([
      'x.id',
      'x.uid',
      'x.mac',
      'x.pk',
      'x.comp_id',
      'c.comp_name',
      'x.reason',
      'x.existing_device_id',
      'd.uid as existing_uid',
      'd.mac as existing_mac',
      'd.pk as existing_pk',
      'd.comp_id as existing_comp_id',
      'dc.comp_name as existing_comp_name',
      'x.import_id',
      'x.state',
      'x.resolution',
      'x.resolved_by',
      'x.resolved_at',
      'x.gmt_create',
    ]);

/** Conflicts whose requested owner company is in scope; pending first, newest first. */
export const listDuplicates = defineList(API.duplicateList, {
  from: (conn) => conn.selectFrom('device_duplicate as x'),
  scope: 'x.comp_id',
  filters: { state: eq('x.state'), uid: upperPrefix('x.uid'), import_id: eq('x.import_id') },
  sorts: { id: 'x.id', state: 'x.state', uid: 'x.uid', gmt_create: 'x.gmt_create' },
  defaultSort: { column: 'x.state', direction: 'asc' },
  defaultKeyDirection: 'desc',
  key: 'x.id',
  select: selectDuplicates,
  toRow: (r) => r,
});

export const getDuplicates = async (conn: Conn, ids: number[]): Promise<DuplicateRow[]> =>
  ids.length === 0 ? [] : await selectDuplicates(conn).where('x.id', 'in', ids).execute();

export const duplicateEntity: AuditEntity = {
  idField: 'id',
  load: async (conn, ids) => getDuplicates(conn, ids),
};

/**
 * Resolves one pending conflict:
 * - keep_existing: the new registration is dropped (nothing else changes);
 * - replace: the existing device takes the new UID, MAC, product and owner company
 *   (both companies in the caller's scope; the new owner's dk_limit holds; `company.dk`
 *   follows through the device triggers, so the key counters stay exact);
 * - ignore: only marked resolved.
 */
export const resolveDuplicate = async (conn: Conn, scope: Scope, userId: string, input: DuplicateSetInput): Promise<DuplicateRow> => {
  const dup = await conn
    .selectFrom('device_duplicate')
    .selectAll()
    .where('id', '=', input.id)
    .where(inScope(scope, 'comp_id'))
    .forUpdate()
    .executeTakeFirst();
  if (!dup) throw notFound('duplicate');
  if (dup.state !== DuplicateState.PENDING) throw badParams({ id: 'resolved' }, 'This conflict is already resolved');
  if (input.resolution === 'replace') {
    const device = await conn
      .selectFrom('device')
      .select(['id', 'comp_id', 'uid', 'mac'])
      .where('id', '=', dup.existing_device_id)
      .where(inScope(scope, 'comp_id'))
      .forUpdate()
      .executeTakeFirst();
    if (!device) throw notFound('device');
    if (!(await isCompanyInScope(conn, scope, dup.comp_id))) throw notFound('company');
    const product = await conn.selectFrom('product').select('pk').where('pk', '=', dup.pk).executeTakeFirst();
    if (!product) throw badParams({ pk: 'not_found' }, 'product does not exist');
    if (device.comp_id !== dup.comp_id) {
      const company = await lockCompanyKeys(conn, dup.comp_id);
      if (!company) throw notFound('company');
      if (company.dk_limit > 0 && company.dk + 1 > company.dk_limit) {
        throw badParams({ comp_id: 'dk_limit' }, "The company's device key limit (dk_limit) is reached");
      }
    }
    // The new values must not collide with a third device.
    const mac = normalizeMac(dup.mac) ?? '';
    const clash = await conn
      .selectFrom('device')
      .select('id')
      .where('id', '<>', device.id)
      .where((eb) =>
        eb.or([eb(eb.fn('upper', ['uid']), '=', dup.uid.toUpperCase()), ...(mac ? [eb(eb.fn('upper', ['mac']), '=', mac)] : [])]),
      )
      .executeTakeFirst();
    if (clash) throw new AppError(ErrorCode.CONFLICT, 'Another device already holds this UID or MAC');
    await conn
      .updateTable('device')
      .set({ uid: dup.uid.toUpperCase(), mac, pk: dup.pk, comp_id: dup.comp_id, gmt_update: nowSeconds() })
      .where('id', '=', device.id)
      .execute();
  }
  await conn
    .updateTable('device_duplicate')
    .set({ state: DuplicateState.RESOLVED, resolution: input.resolution, resolved_by: userId, resolved_at: nowSeconds() })
    .where('id', '=', dup.id)
    .execute();
  const [row] = await getDuplicates(conn, [dup.id]);
  if (!row) throw notFound('duplicate');
  return row;
};
