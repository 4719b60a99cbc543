import { MSG_TYPE_ALARM, PushChannel } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';
import { registerAlarmHook } from '../umh/alarm-hooks.js';
import { boundUsersOf } from '../umh/app-user.repository.js';
import type { AlarmRecord } from '../umh/appdata-ingest.repository.js';
import { queueEvent } from './dispatch.service.js';

/**
 * A device alarm reaches the app users the device is bound to or shared with: the alarm event
 * (message type 7) goes out through the links of each user's app and of the device's product,
 * to each user's address on each link's channel (email, phone, the push token the user's phone
 * signed in with from that app push platform's provider, the user id for webhooks), in the user's
 * language. The records are written in the alarm's transaction.
 */
export const pushAlarm = async (conn: Conn, alarm: AlarmRecord) => {
  const users = await boundUsersOf(conn, alarm.device_id);
  const time = new Date(alarm.ts * 1000).toISOString().replace('T', ' ').slice(0, 16);
  const byLink = new Map<string, { linkType: number; linkId: number; users: typeof users }>();
  for (const u of users) {
    for (const [linkType, linkId] of [
      [1, u.app_id],
      [2, u.product_id],
    ] as const) {
      if (!linkId) continue;
      const key = `${linkType}:${linkId}`;
      const entry = byLink.get(key) ?? { linkType, linkId: Number(linkId), users: [] };
      entry.users.push(u);
      byLink.set(key, entry);
    }
  }
  for (const { linkType, linkId, users: linked } of byLink.values()) {
    for (const u of linked) {
      const lang = u.lang || 'en';
      const recipients = [
        ...(u.email ? [{ to: u.email, lang, channel: PushChannel.EMAIL }] : []),
        ...(u.phone ? [{ to: u.phone, lang, channel: PushChannel.SMS }] : []),
        ...(u.push_tokens ?? []).map((k) => ({ to: k.token, lang, channel: PushChannel.PUSH, provider: k.provider })),
        { to: u.user_id, lang, channel: PushChannel.WEBHOOK },
      ];
      await queueEvent(conn, {
        eventType: MSG_TYPE_ALARM,
        linkType,
        linkId,
        recipients,
        params: {
          app_name: '',
          user_name: u.user_id,
          user_id: u.user_id,
          dev_name: alarm.uid,
          uid: alarm.uid,
          alarm_type: String(alarm.alarm_type),
          alarm_name: alarm.text || String(alarm.alarm_type),
          alarm_time: time,
          time,
        },
        source: `alarm:${alarm.id}`,
      });
    }
  }
};

/** Wires alarms to the dispatcher (once per process). */
let registered = false;
export const installAlarmPushes = () => {
  if (registered) return;
  registered = true;
  registerAlarmHook(pushAlarm);
};
