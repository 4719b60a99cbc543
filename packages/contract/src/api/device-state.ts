import {
  deviceStateListInput,
  deviceStateRowSchema,
  ingestInput,
  ingestOutput,
  licenceListInput,
  licenceRowSchema,
  stateHistoryInput,
  stateHistoryRowSchema,
  wolStateGetInput,
} from '../schemas/device-state.js';
import { type ApiDef, def } from './define.js';

/** Device state ingestion, live state, wake state, licence codes (issue 3). */
export const DEVICE_STATE_API = {
  ingestEvents: def(
    'v2/iot/ingest/events',
    'service',
    'action',
    ingestInput,
    'Device state events from the device side (header X-Service-Key); unknown uids are reported per event',
    ingestOutput,
  ),
  devStateList: def(
    'v2/umh/admin/dev/state/list',
    ['product/device_state'],
    'list',
    deviceStateListInput,
    'Device online/active state, NAT type, last online/offline/seen and why offline, in scope',
    deviceStateRowSchema,
  ),
  wolStateGet: def(
    'iot/wol/state/get',
    ['product/awake'],
    'list',
    wolStateGetInput,
    'Wake state of low-power devices (those that reported one); `uid` for one device',
    deviceStateRowSchema,
  ),
  licCodeList: def('v2/umh/admin/liccode/list', ['product/lic_list'], 'list', licenceListInput, 'Licence codes in scope', licenceRowSchema),
  stateHistory: def(
    'v2/iot/web/uid/state/history',
    ['operate/device', 'product/device_state'],
    'list',
    stateHistoryInput,
    "One device's state history, newest first",
    stateHistoryRowSchema,
  ),
} as const satisfies Record<string, ApiDef>;
