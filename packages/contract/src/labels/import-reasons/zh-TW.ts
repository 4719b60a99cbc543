import type { ImportRowReason } from '../../schemas/jobs.js';

/** Why an import refused a row (import-reasons/en.ts), traditional Chinese. */
export const importReasonsZhTW = {
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
} satisfies Record<ImportRowReason, string>;
