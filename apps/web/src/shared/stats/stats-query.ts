import {
  APP_STATS_XLSX_PATH,
  APPDATA_API,
  type AppStatsInput,
  SECONDS_PER_DAY,
  STATS_API,
  STATS_XLSX_PATH,
  type StatsInput,
} from '@iot/contract';
import type { Dayjs } from 'dayjs';
import { downloadHref } from '../../lib/downloads';
import { dataQueryOptions } from '../../lib/resource';

/** Calendar dates picked in the browser → the UTC days of the rollups with the same labels. */
export const rangeOf = (from: Dayjs, to: Dayjs): Pick<StatsInput, 'gmt_start' | 'gmt_end'> => ({
  gmt_start: Date.UTC(from.year(), from.month(), from.date()) / 1000,
  gmt_end: Date.UTC(to.year(), to.month(), to.date()) / 1000 + SECONDS_PER_DAY,
});

export const statsQueryOptions = (params: StatsInput) => dataQueryOptions(STATS_API.devStatistics, params);

/** The .xlsx of the same numbers, as a link a browser can follow (the ticket stands in for the token). */
export const xlsxHref = (params: StatsInput, ticket: string) =>
  downloadHref(STATS_XLSX_PATH, { gmt_start: params.gmt_start, gmt_end: params.gmt_end, comp_id: params.comp_id, pk: params.pk, ticket });

/** A country code in the reader's language ("CN" → "China" / "中国"), the code when unknown. */
export const countryName = (code: string, lang: string) => {
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
};

/** The app-user statistics (info/user) and their .xlsx link. */
export const appStatsQueryOptions = (params: AppStatsInput) => dataQueryOptions(APPDATA_API.appStatistics, params);
export const appStatsXlsxHref = (params: AppStatsInput, ticket: string) =>
  downloadHref(APP_STATS_XLSX_PATH, {
    gmt_start: params.gmt_start,
    gmt_end: params.gmt_end,
    comp_id: params.comp_id,
    app_id: params.app_id,
    ticket,
  });
