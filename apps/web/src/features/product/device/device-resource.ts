import { API, type DeviceRow, NETWORK_TYPES, type ProductRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FieldOption } from '../../../components/field-config';
import { defineResource, listQueryOptions } from '../../../lib/resource';

/** Registered devices (product/device): listed here, added one at a time, changed in bulk. */
export const deviceResource = defineResource<DeviceRow>({
  name: 'device',
  list: API.deviceList.path,
  add: API.deviceAdd.path,
  idField: 'id',
});

export const ONLINE_OPTIONS: FieldOption[] = [1, 0].map((v) => ({ value: v, label: `device.online_states.${v}` }));
export const ACTIVE_OPTIONS: FieldOption[] = [1, 0].map((v) => ({ value: v, label: `device.active_states.${v}` }));
export const NETWORK_TYPE_OPTIONS: FieldOption[] = NETWORK_TYPES.map((v) => ({ value: v, label: `device.network_types.${v}` }));

/** Products the caller may register devices under (own and shared), as select options `name (pk)`. */
export const useProductOptions = (): FieldOption[] => {
  const products = useQuery(listQueryOptions<ProductRow>('product', API.productList.path, { page_size: 1000 }));
  return useMemo(() => (products.data?.rows ?? []).map((p) => ({ value: p.pk, text: `${p.name} (${p.pk})` })), [products.data]);
};
