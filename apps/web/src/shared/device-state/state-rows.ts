import { DEVICE_STATE_API } from '@iot/contract';
import { defineResource } from '../../lib/resource';

/** Device state rows (read only), patched live from the SSE stream (see live-state.ts). */
export const stateRows = defineResource({ labels: 'device_state', list: DEVICE_STATE_API.devStateList, id: 'device_id' });
