import type { Language } from '../constants.js';
import type { ImportRowReason } from '../schemas/jobs.js';

/**
 * Why an import refused a row, in the three languages: the one text for the import report the
 * server writes (labels/) and for the console's import dialog (apps/web locales/areas/jobs.ts).
 * The console's start-up code reaches this module through the contract's barrel, so it loads
 * with it (about 0.4 KiB).
 */
export const IMPORT_REASONS = {
  en: {
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
  },
  'zh-CN': {
    uid_required: 'UID 为空',
    uid_format: 'UID 格式错误',
    mac_format: 'MAC 格式错误',
    pk_required: 'PK 为空',
    unknown_pk: '未知产品（PK）',
    duplicate_in_file: '文件内重复',
    duplicate_uid: 'UID 已注册',
    duplicate_mac: 'MAC 已注册',
    dk_limit: '超过公司设备密钥上限',
    formula_without_value: '公式没有计算结果：请在 Excel 中打开并保存文件，或粘贴为数值',
  },
  'zh-TW': {
    uid_required: 'UID 為空',
    uid_format: 'UID 格式錯誤',
    mac_format: 'MAC 格式錯誤',
    pk_required: 'PK 為空',
    unknown_pk: '未知產品（PK）',
    duplicate_in_file: '檔案內重複',
    duplicate_uid: 'UID 已註冊',
    duplicate_mac: 'MAC 已註冊',
    dk_limit: '超過公司裝置金鑰上限',
    formula_without_value: '公式沒有計算結果：請在 Excel 中開啟並儲存檔案，或貼上為值',
  },
} satisfies Record<Language, Record<ImportRowReason, string>>;
