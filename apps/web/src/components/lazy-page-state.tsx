import { lazy } from 'react';

/** page-state.tsx's pages, loaded when one is shown (the start-up code and the layout only name them). */
const load = () => import('./page-state');
export const NoPermission = lazy(async () => ({ default: (await load()).NoPermission }));
export const LoadFailed = lazy(async () => ({ default: (await load()).LoadFailed }));
