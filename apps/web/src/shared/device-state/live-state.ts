import { DEVICE_STATE_API, type DeviceStateRow, LIVE_PATH, LIVE_STATE_EVENT, type LiveState } from '@iot/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type ListResult, listKey } from '../../lib/resource';
import { useToken } from '../../lib/session';

/** The lists of device state rows: live changes patch them all. */
const STATE_LISTS = [DEVICE_STATE_API.devStateList, DEVICE_STATE_API.wolStateGet];
/** How long a row changed by the live stream stays highlighted. */
const HIGHLIGHT_MS = 8000;

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** Writes the changed devices into every cached list of state rows (no refetch, no reload). */
export const patchStateLists = (qc: QueryClient, changes: LiveState[]) => {
  const byId = new Map(changes.map((c) => [c.device_id, c]));
  for (const list of STATE_LISTS) {
    qc.setQueriesData<ListResult<DeviceStateRow>>({ queryKey: [listKey(list)] }, (old) => {
      if (!old || !Array.isArray(old.rows) || !old.rows.some((r) => byId.has(r.device_id))) return old;
      return { ...old, rows: old.rows.map((r) => (byId.has(r.device_id) ? { ...r, ...byId.get(r.device_id) } : r)) };
    });
  }
};

/**
 * The live stream (SSE, `GET /api/v2/iot/live`) while the screen is open: changes in the
 * caller's scope patch the cached state lists; answers the connection status and the
 * devices changed in the last few seconds (for a highlight).
 */
export const useLiveDeviceState = () => {
  const qc = useQueryClient();
  const token = useToken();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [changed, setChanged] = useState<ReadonlyMap<number, number>>(new Map());

  useEffect(() => {
    if (!token) return;
    // EventSource sends no headers: the token goes in the query (the server keeps it out of its logs).
    const source = new EventSource(`/api/${LIVE_PATH}?token=${encodeURIComponent(token)}`);
    source.onopen = () => setStatus('live');
    source.onerror = () => setStatus(source.readyState === EventSource.CLOSED ? 'reconnecting' : 'connecting');
    source.addEventListener(LIVE_STATE_EVENT, (event) => {
      const changes = JSON.parse((event as MessageEvent<string>).data) as LiveState[];
      patchStateLists(qc, changes);
      const at = Date.now();
      setChanged((prev) => {
        const next = new Map(prev);
        for (const c of changes) next.set(c.device_id, at);
        return next;
      });
    });
    const sweep = setInterval(() => {
      const cutoff = Date.now() - HIGHLIGHT_MS;
      setChanged((prev) => {
        if (![...prev.values()].some((t) => t < cutoff)) return prev;
        return new Map([...prev].filter(([, t]) => t >= cutoff));
      });
    }, 1000);
    return () => {
      source.close();
      clearInterval(sweep);
    };
  }, [qc, token]);

  return { status, changed };
};
