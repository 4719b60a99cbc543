import crypto from 'node:crypto';
import { API, LICENCE_CODE_LENGTH, type LicenceBatch, type LicenceExportInput, type LicenceRow } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { conditionsOf, defineList, eq, type Filters, upperPrefix } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new code: RFC 4648 base32 (no padding) of 10 bytes from the CSPRNG, 16 characters, 80 bits. */
export const newLicenceCode = (): string => {
  const bytes = crypto.randomBytes((LICENCE_CODE_LENGTH * 5) / 8);
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
};

/** The filters of the list and of the export (one declaration). */
const LICENCE_FILTERS: Filters<LicenceExportInput> = {
  code: upperPrefix('l.code'),
  uid: (v) => (v === '' ? null : sql<SqlBool>`upper(l.uid) = ${v.toUpperCase()}`),
  pk: eq('l.pk'),
  comp_id: eq('l.comp_id'),
  state: eq('l.state'),
  batch_id: eq('l.batch_id'),
};

/** Codes in scope matching the filters (the export's rows and count). */
const filtered = (conn: Conn, scope: Scope, f: LicenceExportInput) => {
  let q = conn.selectFrom('device_licence as l').where(inScope(scope, 'l.comp_id'));
  for (const cond of conditionsOf(LICENCE_FILTERS, f)) q = q.where(cond);
  return q;
};

const ROW_COLUMNS = [
  'l.id',
  'l.code',
  'l.uid',
  'l.pk',
  'l.comp_id',
  'c.comp_name',
  'l.state',
  'l.batch_id',
  'l.gmt_create',
  'l.gmt_use',
  'l.gmt_revoke',
] as const;

/** Newest first. */
export const listLicences = defineList(API.licCodeList, {
  from: (conn) => conn.selectFrom('device_licence as l'),
  scope: 'l.comp_id',
  filters: LICENCE_FILTERS,
  sorts: { id: 'l.id', code: 'l.code', state: 'l.state', gmt_create: 'l.gmt_create', gmt_use: { column: 'l.gmt_use', nullable: true } },
  defaultSort: { column: 'l.id', direction: 'desc' },
  key: 'l.id',
  select: (conn: Conn) => conn.selectFrom('device_licence as l').leftJoin('company as c', 'c.comp_id', 'l.comp_id').select(ROW_COLUMNS),
  toRow: (r) => toRow(r),
});

export const countLicences = async (conn: Conn, scope: Scope, f: LicenceExportInput): Promise<number> =>
  Number(
    (
      await filtered(conn, scope, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The export's rows, oldest first (the order they were generated in). */
export const exportLicences = async (conn: Conn, scope: Scope, f: LicenceExportInput, limit: number): Promise<LicenceRow[]> =>
  (
    await filtered(conn, scope, f)
      .leftJoin('company as c', 'c.comp_id', 'l.comp_id')
      .select(ROW_COLUMNS)
      .orderBy('l.id', 'asc')
      .limit(limit)
      .execute()
  ).map(toRow);

const toRow = (r: Omit<LicenceRow, 'batch_id'> & { batch_id: number | string | null }): LicenceRow => ({
  ...r,
  id: Number(r.id),
  batch_id: r.batch_id === null ? null : Number(r.batch_id),
});

/** Rows by id, whatever the scope (the audit reads them before and after a command). */
export const getLicences = async (conn: Conn, ids: number[]): Promise<LicenceRow[]> =>
  ids.length === 0
    ? []
    : (
        await conn
          .selectFrom('device_licence as l')
          .leftJoin('company as c', 'c.comp_id', 'l.comp_id')
          .select(ROW_COLUMNS)
          .where('l.id', 'in', ids)
          .execute()
      ).map(toRow);

export const getBatches = async (conn: Conn, ids: number[]): Promise<LicenceBatch[]> =>
  ids.length === 0
    ? []
    : (
        await conn
          .selectFrom('licence_batch')
          .select(['id as batch_id', 'pk', 'comp_id', 'count', 'gmt_create'])
          .where('id', 'in', ids)
          .execute()
      ).map((b) => ({ ...b, batch_id: Number(b.batch_id) }));

/**
 * One batch: its row, then `count` fresh codes in one statement per attempt (a collision
 * with an existing code, 2^-80 per pair, is dropped by the unique index and drawn again).
 * Runs inside the command's transaction: all codes or none.
 */
export const insertBatch = async (
  conn: Conn,
  b: { pk: string; compId: number; count: number; userId: string; now: number },
): Promise<LicenceBatch> => {
  const batch = await conn
    .insertInto('licence_batch')
    .values({ pk: b.pk, comp_id: b.compId, count: b.count, user_id: b.userId, gmt_create: b.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const batchId = Number(batch.id);
  let missing = b.count;
  for (let attempt = 0; missing > 0; attempt++) {
    if (attempt >= 5) throw new Error('could not draw unique licence codes');
    const codes = new Set<string>();
    while (codes.size < missing) codes.add(newLicenceCode());
    const inserted = await sql<{ id: number }>`
      insert into device_licence (code, pk, comp_id, state, batch_id, gmt_create)
      select c, ${b.pk}, ${b.compId}::int, 'unused', ${batchId}::bigint, ${b.now}::bigint from unnest(${[...codes]}::text[]) as c
      on conflict (code) do nothing
      returning id
    `.execute(conn);
    missing -= inserted.rows.length;
  }
  return { batch_id: batchId, pk: b.pk, comp_id: b.compId, count: b.count, gmt_create: b.now };
};

/** The codes among `ids` in scope, locked (revocation). */
export const lockLicences = async (conn: Conn, scope: Scope, ids: number[]) =>
  conn
    .selectFrom('device_licence as l')
    .select(['l.id', 'l.state'])
    .where('l.id', 'in', ids)
    .where(inScope(scope, 'l.comp_id'))
    .orderBy('l.id')
    .forUpdate()
    .execute();

export const revokeLicences = async (conn: Conn, ids: number[], now: number): Promise<number> => {
  const result = await conn
    .updateTable('device_licence')
    .set({ state: 'revoked', gmt_revoke: now })
    .where('id', 'in', ids)
    .where('state', '=', 'unused')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
};

export type BindResult = 'bound' | 'not_found' | 'used' | 'revoked' | 'wrong_product' | 'wrong_company' | 'no_device';

/**
 * Binds a code to a device: the code (in scope) must be unused, the device (in scope) of the
 * code's product and of a company in the code owner's tree (its `comp_path` under the owner's).
 * The code row is locked, so two concurrent uses cannot both win. `sameDeviceIsBound`: a
 * device repeating its own code (ingestion retries) answers `bound` without a change.
 */
export const bindLicence = async (
  conn: Conn,
  scope: Scope,
  input: { code: string; uid: string; now: number; sameDeviceIsBound: boolean },
): Promise<{ result: BindResult; id?: number }> => {
  const code = input.code.trim();
  const licence = await conn
    .selectFrom('device_licence as l')
    .innerJoin('company as c', 'c.comp_id', 'l.comp_id')
    .select(['l.id', 'l.state', 'l.uid', 'l.pk', 'c.comp_path'])
    .where('l.code', 'in', [...new Set([code, code.toUpperCase()])])
    .where(inScope(scope, 'l.comp_id'))
    .forUpdate('l')
    .executeTakeFirst();
  if (!licence) return { result: 'not_found' };
  const id = Number(licence.id);
  const device = await conn
    .selectFrom('device as d')
    .innerJoin('company as c', 'c.comp_id', 'd.comp_id')
    .select(['d.uid', 'd.pk', 'c.comp_path'])
    .where(sql<boolean>`upper(d.uid) = ${input.uid.trim().toUpperCase()}`)
    .where(inScope(scope, 'd.comp_id'))
    .executeTakeFirst();
  if (!device) return { result: 'no_device', id };
  if (licence.state === 'used') {
    const mine = input.sameDeviceIsBound && licence.uid?.toUpperCase() === device.uid.toUpperCase();
    return { result: mine ? 'bound' : 'used', id };
  }
  if (licence.state === 'revoked') return { result: 'revoked', id };
  if (device.pk !== licence.pk) return { result: 'wrong_product', id };
  if (!device.comp_path.startsWith(licence.comp_path)) return { result: 'wrong_company', id };
  const updated = await conn
    .updateTable('device_licence')
    .set({ state: 'used', uid: device.uid, gmt_use: input.now })
    .where('id', '=', id)
    .where('state', '=', 'unused')
    .executeTakeFirst();
  return { result: Number(updated.numUpdatedRows) === 1 ? 'bound' : 'used', id };
};
