import { deletedSchema, delSchema } from '../schemas/common.js';
import {
  otaUpgradeListInput,
  otaUpgradeRowSchema,
  productVersionAddInput,
  productVersionListInput,
  productVersionRowSchema,
  productVersionSetInput,
} from '../schemas/ota.js';
import { type ApiDef, def } from './define.js';

const FIRMWARE_MENUS = ['product/iot'] as const;

/** Product firmware (OTA, issue 8): versions per product and their rollout to devices. */
export const OTA_API = {
  productVerList: def(
    'v2/ota/admin/product/ver/list',
    FIRMWARE_MENUS,
    'list',
    productVersionListInput,
    "Firmware versions of products the caller's company owns, with their rollout (upgrades by state)",
    productVersionRowSchema,
  ),
  productVerAdd: def(
    'v2/ota/admin/product/ver/add',
    FIRMWARE_MENUS,
    'add',
    productVersionAddInput,
    'Add a firmware version to an owned product (details: one per language)',
    productVersionRowSchema,
  ),
  productVerSet: def(
    'v2/ota/admin/product/ver/set',
    FIRMWARE_MENUS,
    'set',
    productVersionSetInput,
    'Change a firmware version (release, delist, limit, range, details); count stays the rollout’s',
    productVersionRowSchema,
  ),
  productVerDel: def(
    'v2/ota/admin/product/ver/del',
    FIRMWARE_MENUS,
    'del',
    delSchema,
    'Delete firmware versions never offered to a device (406 in_use otherwise: delist it)',
    deletedSchema,
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
