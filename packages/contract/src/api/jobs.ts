import {
  duplicateListInput,
  duplicateRowSchema,
  duplicateSetInput,
  exportAddInput,
  importAddInput,
  jobListInput,
  jobRowSchema,
} from '../schemas/jobs.js';
import { type ApiDef, def } from './define.js';

const DEVICE_MENUS = ['product/device'] as const;
const STATE_MENUS = ['product/device_state'] as const;
const DUP_MENUS = ['product/dev_dup'] as const;

/**
 * Background jobs: device import and export, duplicates (issue 3). Downloads are GET paths
 * outside this registry (docs/api.md): `v2/iot/import/template.xlsx`, `v2/iot/file/<id>/<name>.xlsx`.
 */
export const JOBS_API = {
  devImportAdd: def(
    'iot/dev/file/update',
    DEVICE_MENUS,
    'add',
    importAddInput,
    'Start an xlsx device import (background job)',
    jobRowSchema,
  ),
  devImportList: def('iot/dev/file/query', DEVICE_MENUS, 'list', jobListInput, 'Device import jobs in scope', jobRowSchema),
  dataImportAdd: def(
    'iot/data/file/update',
    DEVICE_MENUS,
    'add',
    importAddInput,
    'Same as iot/dev/file/update (legacy path)',
    jobRowSchema,
  ),
  dataImportList: def('iot/data/file/query', DEVICE_MENUS, 'list', jobListInput, 'Same as iot/dev/file/query (legacy path)', jobRowSchema),
  devExportAdd: def('iot/uid/export/add', DEVICE_MENUS, 'add', exportAddInput, 'Start a device export (≤ 3 months)', jobRowSchema),
  devExportList: def('iot/uid/export/get', DEVICE_MENUS, 'list', jobListInput, 'Device export jobs in scope', jobRowSchema),
  stateExportAdd: def(
    'v2/umh/admin/dev/state/export/add',
    STATE_MENUS,
    'add',
    exportAddInput,
    'Start a device state export (≤ 3 months)',
    jobRowSchema,
  ),
  stateExportList: def('v2/umh/admin/dev/state/export/list', STATE_MENUS, 'list', jobListInput, 'Device state export jobs', jobRowSchema),
  duplicateList: def('iot/uid/duplicate/get', DUP_MENUS, 'list', duplicateListInput, 'UID/MAC conflicts in scope', duplicateRowSchema),
  duplicateSet: def(
    'iot/uid/duplicate/set',
    DUP_MENUS,
    'set',
    duplicateSetInput,
    'Resolve a conflict: keep_existing, replace or ignore',
    duplicateRowSchema,
  ),
} as const satisfies Record<string, ApiDef>;
