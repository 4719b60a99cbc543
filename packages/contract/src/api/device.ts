import {
  deviceAddInput,
  deviceBulkInput,
  deviceBulkOutput,
  deviceGetInput,
  deviceInfoSchema,
  deviceListInput,
  devicePropertiesOutput,
  deviceQueryInput,
  deviceRowSchema,
} from '../schemas/device.js';
import { type ApiDef, def } from './define.js';

const DEVICE_MENUS = ['product/device'] as const;
/** One device in depth is also read from the device screen and the state list. */
const DEVICE_DETAIL_MENUS = ['product/device', 'operate/device', 'product/device_state'] as const;

/** Device registration, bulk actions, device detail (issue 3). */
export const DEVICE_API = {
  deviceList: def(
    'v2/iot/web/uid/reg/list',
    DEVICE_MENUS,
    'list',
    deviceListInput,
    'Registered devices in scope with product, company and state; newest first; cursor paging',
    deviceRowSchema,
  ),
  deviceQuery: def('iot/uid/reg/query', DEVICE_MENUS, 'get', deviceQueryInput, 'Look up one device by UID or MAC', deviceInfoSchema),
  deviceAdd: def('v2/iot/web/uid/reg/add', DEVICE_MENUS, 'add', deviceAddInput, 'Register one device (dk_limit applies)', deviceRowSchema),
  deviceBulk: def(
    'v2/iot/web/uid/reg/bulk',
    DEVICE_MENUS,
    'action',
    deviceBulkInput,
    'Assign to a company, change product or delete: selected ids or every device matching a filter',
    deviceBulkOutput,
  ),
  deviceInfo: def('v2/iot/web/uid/info/get', DEVICE_DETAIL_MENUS, 'get', deviceGetInput, 'One device in depth', deviceInfoSchema),
  deviceProperties: def(
    'v2/iot/web/uid/properties/get',
    DEVICE_DETAIL_MENUS,
    'get',
    deviceGetInput,
    'Properties a device reported',
    devicePropertiesOutput,
  ),
} as const satisfies Record<string, ApiDef>;
