import type * as appdata from './areas/appdata';
import type * as apps from './areas/apps';
import type * as device from './areas/device';
import type * as device_state from './areas/device_state';
import type * as firmware from './areas/firmware';
import type * as jobs from './areas/jobs';
import type * as messaging from './areas/messaging';
import type * as product from './areas/product';
import type * as stats from './areas/stats';

/**
 * Message areas: the messages of a group of screens, loaded with the first page that declares
 * them (`export const areas` beside its default export, read by app/routes.tsx), in the current
 * language only. The base messages (en.ts…) hold what every page and the shell use.
 */
export type AreaMessages = {
  product: typeof product.en;
  device: typeof device.en;
  device_state: typeof device_state.en;
  jobs: typeof jobs.en;
  stats: typeof stats.en;
  firmware: typeof firmware.en;
  apps: typeof apps.en;
  appdata: typeof appdata.en;
} & typeof messaging.en; // one file, several label areas (push_platform, push_template…)

export type AreaName = Exclude<keyof AreaMessages, keyof typeof messaging.en> | 'messaging';

/** One language's loaders: each answers the messages to merge at the top level. */
export type AreaLoaders = Record<AreaName, () => Promise<Partial<AreaMessages>>>;
