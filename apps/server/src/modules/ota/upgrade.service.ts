import type { DeviceEvent, OtaEventResult } from '@iot/contract';
import type { Db } from '../../platform/db/database.js';
import {
  claimOffer,
  findDevice,
  finishReachedUpgrades,
  offerCandidates,
  offerOf,
  supersedeOpenUpgrades,
  updateOpenUpgrade,
} from './upgrade.repository.js';

export type OtaEvent = DeviceEvent & { ts: number };

/** The event types this service answers (the rest of a batch is device state). */
export const isOtaEvent = (e: DeviceEvent): boolean => e.type === 'ota_check' || e.type === 'ota_progress' || e.type === 'ota_result';

/**
 * `ota_check`: the newest released version of the device's product that its firmware may take
 * and that has room in its rollout (or was offered to it before) is claimed and offered; older
 * open upgrades of the device are superseded. None: `none`.
 */
const check = async (db: Db, e: OtaEvent): Promise<Omit<OtaEventResult, 'index' | 'uid'>> =>
  db.transaction().execute(async (trx) => {
    const device = await findDevice(trx, e.uid);
    const verNum = e.ver_num ?? 0;
    if (!device) return { result: 'none' };
    const deviceId = Number(device.device_id);
    await finishReachedUpgrades(trx, deviceId, verNum, e.ts);
    for (const candidate of await offerCandidates(trx, device.pk, deviceId, verNum)) {
      if (!(await claimOffer(trx, deviceId, candidate, verNum, e.ts))) continue;
      await supersedeOpenUpgrades(trx, deviceId, candidate.id, e.ts);
      return { result: 'offered', offer: await offerOf(trx, candidate.id, e.lang) };
    }
    await supersedeOpenUpgrades(trx, deviceId, null, e.ts);
    return { result: 'none' };
  });

/** `ota_progress` / `ota_result`: the device's open upgrade moves on; without one, `no_upgrade`. */
const report = async (db: Db, e: OtaEvent): Promise<Omit<OtaEventResult, 'index' | 'uid'>> =>
  db.transaction().execute(async (trx) => {
    const device = await findDevice(trx, e.uid);
    if (!device) return { result: 'no_upgrade' };
    const change =
      e.type === 'ota_progress'
        ? { state: 'upgrading' as const, progress: e.progress ?? 0 }
        : e.success === 1
          ? { state: 'succeeded' as const }
          : { state: 'failed' as const, error: e.error ?? '' };
    return { result: (await updateOpenUpgrade(trx, Number(device.device_id), change, e.ts)) ? 'updated' : 'no_upgrade' };
  });

/**
 * The OTA events of an ingestion batch (registered devices only), in batch order, one
 * transaction each: a device's check, progress and result in one batch apply in that order.
 */
export const applyOtaEvents = async (db: Db, items: { e: OtaEvent; index: number }[]): Promise<OtaEventResult[]> => {
  const out: OtaEventResult[] = [];
  for (const { e, index } of items) {
    const answer = e.type === 'ota_check' ? await check(db, e) : await report(db, e);
    out.push({ index, uid: e.uid, ...answer });
  }
  return out;
};
