import { otaUpgradeListInput, otaUpgradeRowSchema, productVersion } from '../schemas/ota.js';
import { type ApiDef, crudApi, def } from './define.js';

const FIRMWARE_MENUS = ['product/iot'] as const;

/** Product firmware (OTA, issue 8): versions per product and their rollout to devices. */
export const OTA_API = {
  ...crudApi(
    'productVer',
    'v2/ota/admin/product/ver',
    FIRMWARE_MENUS,
    productVersion,
    "Firmware versions of products the caller's company owns, with their rollout (upgrades by state)",
  ),
  productVerDevices: def(
    'v2/ota/admin/product/ver/devices',
    [...FIRMWARE_MENUS, 'operate/device'],
    'list',
    otaUpgradeListInput,
    "Devices' upgrades: of a version, a device or a product, by state; newest first",
    otaUpgradeRowSchema,
  ),
} as const satisfies Record<string, ApiDef>;
