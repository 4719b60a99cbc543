import { API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type FieldOption, valueOptions } from '../../../components/field-config';
import { defineResource, listQueryOptions } from '../../../lib/resource';

/** Registered devices (product/device): listed here, added one at a time (a company's key count changes), changed in bulk. */
export const deviceResource = defineResource({
  labels: 'device',
  list: API.deviceList,
  add: API.deviceAdd,
  id: 'id',
  affects: [API.companyList],
});

export const ONLINE_OPTIONS = valueOptions([1, 0], 'device.online_states');
export const ACTIVE_OPTIONS = valueOptions([1, 0], 'device.active_states');

/** Products the caller may register devices under (own and shared), as select options `name (pk)`. */
export const useProductOptions = (): FieldOption[] => {
  const products = useQuery(listQueryOptions(API.productList, { page_size: 1000 }));
  return useMemo(() => (products.data?.rows ?? []).map((p) => ({ value: p.pk, text: `${p.name} (${p.pk})` })), [products.data]);
};
