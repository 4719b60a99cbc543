import type { Conn } from '../../platform/db/database.js';
import type { AlarmRecord } from './appdata-ingest.repository.js';

/**
 * The hook point alarms leave for what they cause (alarm pushes: the push dispatcher, wired by
 * its own module). Every recorded alarm is handed to each registered hook inside the
 * transaction that wrote it, so what a hook writes (push records) commits or rolls back with
 * the alarm. No hook is registered by this module: without one, recording an alarm does
 * nothing more.
 */
export type AlarmHook = (conn: Conn, alarm: AlarmRecord) => Promise<void>;

const hooks = new Set<AlarmHook>();

/** Registers a hook; answers its removal (tests, shutdown). */
export const registerAlarmHook = (hook: AlarmHook): (() => void) => {
  hooks.add(hook);
  return () => hooks.delete(hook);
};

/** Called once per recorded alarm (appdata-ingest.service.ts). */
export const onAlarmRecorded = async (conn: Conn, alarm: AlarmRecord): Promise<void> => {
  for (const hook of hooks) await hook(conn, alarm);
};
