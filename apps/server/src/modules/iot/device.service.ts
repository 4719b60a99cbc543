import crypto from 'node:crypto';
import { API, type DeviceAddInput, type DeviceBulkInput, type DeviceRow, normalizeMac, normalizeUid } from '@iot/contract';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext, Scope } from '../../platform/context.js';
import type { Conn, Db } from '../../platform/db/database.js';
import { type AppError, badParams, exists, notFound } from '../../platform/errors.js';
import { isCompanyInScope } from '../../platform/scope.js';
import { nowSeconds } from '../../platform/time.js';
import {
  changeDevicesProduct,
  countMovingInto,
  deleteDevices,
  filteredDevices,
  findExisting,
  getDevices,
  insertDevices,
  lockCompanyKeys,
  moveDevices,
  type NewDevice,
  visibleProductPks,
} from './device.repository.js';
import { recordDuplicates } from './duplicate.repository.js';

export type RegisterReason = 'uid_format' | 'mac_format' | 'unknown_pk' | 'duplicate_uid' | 'duplicate_mac' | 'dk_limit';

export interface RegisterResult {
  /** Position of the row in `input.rows`. */
  index: number;
  ok: boolean;
  reason?: RegisterReason;
  /** The new device (ok rows). */
  deviceId?: number;
  /** The device already holding this UID or MAC (duplicate rows), when known. */
  existingDeviceId?: number;
}

export interface RegisterInput {
  compId: number;
  importId: number | null;
  rows: { uid: string; mac: string; pk: string }[];
}

/** Rows per INSERT statement (column arrays: its size bounds the statement, not the parameter count). */
const CHUNK = 1_000;

/** Per-device secrets (128 bits each, hex), one draw from the CSPRNG for a whole batch. */
const deviceKeys = (n: number) => {
  const bytes = crypto.randomBytes(16 * n);
  return (i: number) => bytes.toString('hex', 16 * i, 16 * i + 16);
};

/**
 * Registers devices for one company inside the caller's connection or transaction (the
 * add route and J's import both use it). Every row is checked (UID and MAC format, a
 * product the caller may see, UID/MAC already registered, the company's dk_limit); valid
 * rows go in with multi-row INSERTs, each with its device_state row, and `company.dk`
 * follows through the triggers of migration 0006 in the same transaction. Rows repeating
 * an earlier row of the same call are answered as duplicates of it. Rows are admitted
 * under dk_limit in input order. The company row stays locked until the transaction ends,
 * so concurrent registrations for one company cannot overshoot the limit together.
 *
 * A company outside the caller's scope throws 406 (not found) and stores nothing.
 */
export const registerDevices = async (conn: Conn, scope: Scope, input: RegisterInput): Promise<RegisterResult[]> => {
  if (!(await isCompanyInScope(conn, scope, input.compId))) throw notFound('company');
  const company = await lockCompanyKeys(conn, input.compId);
  if (!company) throw notFound('company');

  const results: RegisterResult[] = input.rows.map((_, index) => ({ index, ok: false }));
  const parsed = input.rows.map((row) => ({
    uid: normalizeUid(row.uid),
    mac: normalizeMac(row.mac),
    pk: String(row.pk ?? '').trim(),
  }));
  const uids = [...new Set(parsed.map((p) => p.uid).filter((u): u is string => u !== null))];
  const macs = [...new Set(parsed.map((p) => p.mac).filter((m): m is string => Boolean(m)))];
  const pks = [...new Set(parsed.map((p) => p.pk).filter(Boolean))];
  const [visible, existing] = await Promise.all([visibleProductPks(conn, scope, pks), findExisting(conn, uids, macs)]);

  let room = company.dk_limit > 0 ? Math.max(company.dk_limit - company.dk, 0) : Number.POSITIVE_INFINITY;
  const seenUid = new Map<string, number>();
  const seenMac = new Map<string, number>();
  const accepted: { index: number; row: NewDevice }[] = [];
  const now = nowSeconds();
  const keyOf = deviceKeys(parsed.length);
  parsed.forEach((p, index) => {
    const result = results[index] as RegisterResult;
    if (p.uid === null) result.reason = 'uid_format';
    else if (p.mac === null) result.reason = 'mac_format';
    else if (!visible.has(p.pk)) result.reason = 'unknown_pk';
    else if (existing.uid.has(p.uid) || seenUid.has(p.uid)) {
      result.reason = 'duplicate_uid';
      const at = existing.uid.get(p.uid);
      if (at !== undefined) result.existingDeviceId = at;
    } else if (p.mac && (existing.mac.has(p.mac) || seenMac.has(p.mac))) {
      result.reason = 'duplicate_mac';
      const at = existing.mac.get(p.mac);
      if (at !== undefined) result.existingDeviceId = at;
    } else if (room <= 0) result.reason = 'dk_limit';
    else {
      room -= 1;
      seenUid.set(p.uid, index);
      if (p.mac) seenMac.set(p.mac, index);
      accepted.push({
        index,
        row: {
          uid: p.uid,
          mac: p.mac,
          pk: p.pk,
          comp_id: input.compId,
          dev_key: keyOf(index),
          import_id: input.importId,
          gmt_create: now,
          gmt_update: now,
        },
      });
    }
  });

  const idByUid = new Map<string, number>();
  for (let i = 0; i < accepted.length; i += CHUNK) {
    const chunk = accepted.slice(i, i + CHUNK);
    for (const r of await insertDevices(
      conn,
      chunk.map((a) => a.row),
    ))
      idByUid.set(r.uid, r.id);
  }
  // A row a concurrent transaction registered first was skipped by ON CONFLICT: say which.
  const lost = accepted.filter((a) => !idByUid.has(a.row.uid));
  const raced =
    lost.length > 0
      ? await findExisting(
          conn,
          lost.map((a) => a.row.uid),
          lost.map((a) => a.row.mac).filter(Boolean),
        )
      : null;
  for (const a of accepted) {
    const result = results[a.index] as RegisterResult;
    const id = idByUid.get(a.row.uid);
    if (id !== undefined) {
      result.ok = true;
      result.deviceId = id;
      continue;
    }
    const byUid = raced?.uid.get(a.row.uid);
    result.reason = byUid !== undefined ? 'duplicate_uid' : 'duplicate_mac';
    const at = byUid ?? raced?.mac.get(a.row.mac);
    if (at !== undefined) result.existingDeviceId = at;
  }
  // Later rows repeating an accepted row of this call point at the device it created.
  parsed.forEach((p, index) => {
    const result = results[index] as RegisterResult;
    if (result.ok || result.existingDeviceId !== undefined) return;
    if (result.reason === 'duplicate_uid' && p.uid) {
      const first = seenUid.get(p.uid);
      const id = first === undefined ? undefined : results[first]?.deviceId;
      if (id !== undefined) result.existingDeviceId = id;
    } else if (result.reason === 'duplicate_mac' && p.mac) {
      const first = seenMac.get(p.mac);
      const id = first === undefined ? undefined : results[first]?.deviceId;
      if (id !== undefined) result.existingDeviceId = id;
    }
  });
  return results;
};

const REFUSALS: Record<RegisterReason, () => AppError> = {
  uid_format: () => badParams({ uid: 'format:uid' }),
  mac_format: () => badParams({ mac: 'format:mac' }),
  unknown_pk: () => badParams({ pk: 'not_found' }, 'product does not exist'),
  duplicate_uid: () => exists('uid', 'A device with this UID is already registered'),
  duplicate_mac: () => exists('mac', 'A device with this MAC is already registered'),
  dk_limit: () => badParams({ comp_id: 'dk_limit' }, "The company's device key limit (dk_limit) is reached"),
};

/**
 * `v2/iot/web/uid/reg/add`: one device; a refused row answers its code and stores nothing,
 * except that a UID/MAC conflict is recorded for product/dev_dup (pending), in its own
 * transaction on `db` once the refused command has rolled back.
 */
export const registerOne = async (conn: Conn, scope: Scope, input: DeviceAddInput, db: Db): Promise<DeviceRow> => {
  const [result] = await registerDevices(conn, scope, { compId: input.comp_id, importId: null, rows: [input] });
  if (!result?.ok || result.deviceId === undefined) {
    const refusal = REFUSALS[result?.reason ?? 'uid_format']();
    const existing = result?.existingDeviceId;
    if ((result?.reason === 'duplicate_uid' || result?.reason === 'duplicate_mac') && existing !== undefined) {
      const reason = result.reason;
      const duplicate = {
        uid: normalizeUid(input.uid) ?? input.uid,
        mac: normalizeMac(input.mac) ?? input.mac,
        pk: input.pk,
        comp_id: input.comp_id,
        reason,
        existing_device_id: existing,
        import_id: null,
      };
      refusal.afterRollback = () => db.transaction().execute((trx) => recordDuplicates(trx, [duplicate]));
    }
    throw refusal;
  }
  const [row] = await getDevices(conn, [result.deviceId]);
  if (!row) throw notFound('device');
  return row;
};

/**
 * `v2/iot/web/uid/reg/bulk`: acts on the selected ids or on every device matching the
 * filter, always within the caller's scope (foreign ids simply do not match). Moving
 * devices into a company checks its dk_limit for all of them at once (406, nothing moved).
 */
export const bulkDevices = async (ctx: RequestContext, input: DeviceBulkInput) => {
  const { conn, scope } = ctx;
  const selection = () => {
    const q = filteredDevices(conn, scope, input.filter ?? {});
    return input.ids && input.ids.length > 0 ? q.where('d.id', 'in', input.ids) : q;
  };
  const now = nowSeconds();
  let changed = 0;
  if (input.action === 'assign_company') {
    // comp_id is a declared company reference: the transport checked it is in scope.
    const compId = input.comp_id as number;
    const company = await lockCompanyKeys(conn, compId);
    if (!company) throw notFound('company');
    const moving = await countMovingInto(selection(), compId);
    if (company.dk_limit > 0 && company.dk + moving > company.dk_limit) throw REFUSALS.dk_limit();
    changed = await moveDevices(conn, selection(), compId, now);
  } else if (input.action === 'change_product') {
    const pk = input.pk as string;
    if (!(await visibleProductPks(conn, scope, [pk])).has(pk)) throw REFUSALS.unknown_pk();
    changed = await changeDevicesProduct(conn, selection(), pk, now);
  } else {
    changed = await deleteDevices(conn, selection());
  }
  // A selection that matched nothing changed nothing: no audit row.
  if (changed > 0) {
    await writeAudit(conn, ctx, [
      {
        path: API.deviceBulk.path,
        action: input.action === 'delete' ? 'del' : 'set',
        target_id: input.ids ? input.ids.join(',').slice(0, 200) : 'filter',
        changes: {
          action: { before: null, after: input.action },
          selection: { before: null, after: input.ids ? { ids: input.ids } : { filter: input.filter } },
          target: { before: null, after: input.comp_id ?? input.pk ?? null },
          changed: { before: null, after: changed },
        },
      },
    ]);
  }
  return { action: input.action, changed };
};
