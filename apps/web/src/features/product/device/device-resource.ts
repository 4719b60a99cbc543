import { DEVICE_API, USER_API } from '@iot/contract';
import { valueOptions } from '../../../components/field-config';
import { defineResource } from '../../../lib/resource';

/** Registered devices (product/device): listed here, added one at a time (a company's key count changes), changed in bulk. */
export const deviceResource = defineResource({
  labels: 'device',
  list: DEVICE_API.deviceList,
  add: DEVICE_API.deviceAdd,
  id: 'id',
  affects: [USER_API.companyList],
});

export const ONLINE_OPTIONS = valueOptions([1, 0], 'device.online_states');
export const ACTIVE_OPTIONS = valueOptions([1, 0], 'device.active_states');
