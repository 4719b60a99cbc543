import { MOBILE_MAX_WIDTH } from '@iot/contract';
import { useSyncExternalStore } from 'react';

const query = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

const subscribe = (cb: () => void) => {
  const mql = window.matchMedia(query);
  mql.addEventListener('change', cb);
  return () => mql.removeEventListener('change', cb);
};

/** True under MOBILE_MAX_WIDTH (599 px): drawer menu, 3 pager items. */
export const useIsMobile = () => useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
