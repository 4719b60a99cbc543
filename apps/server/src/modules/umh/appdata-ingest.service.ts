import type {
  AlarmEvent,
  AppEvent,
  BindEvent,
  DeviceLogEvent,
  IngestOutput,
  ServiceLogEvent,
  ShareEvent,
  UserLoginEvent,
  UserRegisterEvent,
} from '@iot/contract';
import type { Db } from '../../platform/db/database.js';
import { onAlarmRecorded } from './alarm-hooks.js';
import {
  applyBinding,
  type Indexed,
  recordAlarms,
  recordDeviceLogs,
  recordLogins,
  recordPushTokens,
  recordRegistrations,
  recordServiceLogs,
  type UnknownUid,
} from './appdata-ingest.repository.js';

type Refused = NonNullable<IngestOutput['refused']>;

export interface AppIngestResult {
  unknown: UnknownUid[];
  refused: Refused;
}

/**
 * The app side's events of one ingestion batch (`v2/iot/ingest/events`), in ONE transaction:
 * registrations first, then sign-ins, bindings and shares in batch order, alarms (each handed
 * to the alarm hooks), device and service logs. `index` is the event's position in the batch.
 */
export const ingestAppEvents = async (db: Db, items: { index: number; e: AppEvent & { ts: number } }[]): Promise<AppIngestResult> => {
  const of = <E extends AppEvent>(...types: E['type'][]) =>
    items.filter((x) => (types as string[]).includes(x.e.type)).map((x) => ({ ...(x.e as E & { ts: number }), i: x.index }));
  const registrations = of<UserRegisterEvent>('user_register');
  const logins = of<UserLoginEvent>('user_login');
  const bindings = of<BindEvent | ShareEvent>('bind', 'unbind', 'share', 'unshare');
  const alarms = of<AlarmEvent>('alarm');
  const deviceLogs = of<DeviceLogEvent>('device_log');
  const serviceLogs = of<ServiceLogEvent>('service_log');

  return db.transaction().execute(async (trx) => {
    const unknown: UnknownUid[] = [];
    const refused: Refused = [];
    if (registrations.length > 0) {
      const out = await recordRegistrations(trx, registrations);
      for (const index of out.unknownApp) refused.push({ index, reason: 'unknown_app' });
      for (const index of out.unknownCompany) refused.push({ index, reason: 'unknown_company' });
    }
    if (logins.length > 0) {
      for (const index of await recordLogins(trx, logins)) refused.push({ index, reason: 'unknown_user' });
      await recordPushTokens(trx, logins);
    }
    for (const b of bindings as Indexed<BindEvent | ShareEvent>[]) {
      const outcome = await applyBinding(trx, b);
      if (outcome === 'unknown_uid') unknown.push({ index: b.i, uid: b.uid });
      else if (outcome !== 'ok') refused.push({ index: b.i, reason: outcome });
    }
    if (alarms.length > 0) {
      const out = await recordAlarms(trx, alarms);
      unknown.push(...out.unknown);
      for (const alarm of out.alarms) await onAlarmRecorded(trx, alarm);
    }
    if (deviceLogs.length > 0) unknown.push(...(await recordDeviceLogs(trx, deviceLogs)));
    await recordServiceLogs(trx, serviceLogs);
    return { unknown, refused: refused.sort((a, b) => a.index - b.index) };
  });
};
