import type { ImportRowReason } from '../../schemas/jobs.js';

/**
 * Why an import refused a row: the one text for the import report the server writes and for the
 * console's import dialog (apps/web locales/areas/jobs.ts). One file per language, so a page
 * loads only its own.
 */
export const importReasonsEn = {
  uid_required: 'UID is empty',
  uid_format: 'UID format is wrong',
  mac_format: 'MAC format is wrong',
  pk_required: 'PK is empty',
  unknown_pk: 'Unknown product (PK)',
  duplicate_in_file: 'Duplicate in this file',
  duplicate_uid: 'UID already registered',
  duplicate_mac: 'MAC already registered',
  dk_limit: 'Over the company key limit',
  formula_without_value: 'Formula without a calculated value: open and save the file in Excel, or paste the values',
} satisfies Record<ImportRowReason, string>;
