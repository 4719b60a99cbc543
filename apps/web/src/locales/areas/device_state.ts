/**
 * Messages of the `device_state` area, in the three languages (merged into en.ts, zh-CN.ts and
 * zh-TW.ts under the key `device_state`). An area file keeps parallel work out of the big files.
 */
export const en = {};
export const zhCN: typeof en = {};
export const zhTW: typeof en = {};
