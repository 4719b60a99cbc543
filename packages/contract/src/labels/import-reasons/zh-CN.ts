import type { ImportRowReason } from '../../schemas/jobs.js';

/** Why an import refused a row (import-reasons/en.ts), simplified Chinese. */
export const importReasonsZhCN = {
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
} satisfies Record<ImportRowReason, string>;
