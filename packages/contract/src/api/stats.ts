import { statsInput, statsOutput } from '../schemas/stats.js';
import { type ApiDef, def } from './define.js';

/** Device statistics: info/dev, and the dashboard's device card for holders of info/dev (issue 3). */
export const STATS_API = {
  devStatistics: def(
    'v2/iot/dev/statistics/get',
    ['info/dev'],
    'get',
    statsInput,
    'Daily registrations, activations and online devices, online share, top countries, products and companies (rollups)',
    statsOutput,
  ),
} as const satisfies Record<string, ApiDef>;
