import { PUSH_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FieldOption } from '../../components/field-config';
import { listQueryOptions } from '../../lib/resource';

/** Push platforms as select options (`name (id)`), optionally of one channel. */
export const usePlatformOptions = (channel?: number): FieldOption[] => {
  const list = useQuery(listQueryOptions(PUSH_API.pushPlatformList, { page_size: 500, ...(channel ? { type: channel } : {}) }));
  return useMemo(() => (list.data?.rows ?? []).map((p) => ({ value: p.id, text: `${p.name} (${p.id})` })), [list.data]);
};

/** Push templates as select options (`name · lang (id)`). */
export const useTemplateOptions = (): FieldOption[] => {
  const list = useQuery(listQueryOptions(PUSH_API.pushTemplateList, { page_size: 500 }));
  return useMemo(() => (list.data?.rows ?? []).map((t) => ({ value: t.id, text: `${t.name} · ${t.lang} (${t.id})` })), [list.data]);
};
