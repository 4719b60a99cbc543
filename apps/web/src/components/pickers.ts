import { PRODUCT_API, type RoleRow, USER_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import type { TreeSelectProps } from 'antd';
import type { i18n as I18n } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listQueryOptions, type TreeRow, treeQueryOptions } from '../lib/resource';
import type { FieldOption } from './field-config';

export type CompanyTreeData = NonNullable<TreeSelectProps['treeData']>;

type CompanyNode = TreeRow<{ comp_id: number; comp_name: string }, 'children'>;

/** Company tree (list with tree:1) → TreeSelect data. */
export const companyTreeData = (nodes: CompanyNode[]): CompanyTreeData =>
  nodes.map((c) => ({
    value: c.comp_id,
    title: c.comp_name,
    children: c.children?.length ? companyTreeData(c.children) : undefined,
  }));

/** Same query key as the company screen's tree, so its changes refresh every picker. */
export const COMPANY_TREE_PARAMS = { tree: 1 };
export const companyTreeQuery = () => treeQueryOptions(USER_API.companyList, COMPANY_TREE_PARAMS);

/** The companies in the caller's scope, as a tree picker. */
export const useCompanyTreeData = (): CompanyTreeData => {
  const tree = useQuery(companyTreeQuery());
  return useMemo(() => companyTreeData(tree.data?.rows ?? []), [tree.data]);
};

/** A role's name in the current language (cn_name in Chinese when set). */
export const roleLabel = (role: Pick<RoleRow, 'name' | 'cn_name'>, i18n: I18n) =>
  i18n.language.startsWith('zh') ? role.cn_name || role.name : role.name || role.cn_name;

/** The roles the caller may see (and give), as select options. */
export const useRoleOptions = (): FieldOption[] => {
  const { i18n } = useTranslation();
  const roles = useQuery(listQueryOptions(USER_API.roleList, { page_size: 1000 }));
  return useMemo(
    () => (roles.data?.rows ?? []).map((r) => ({ value: r.id, text: roleLabel(r, i18n) })),
    // i18n.language: labels follow the language.
    [roles.data, i18n, i18n.language],
  );
};

/** Products the caller may register devices under (own and shared), as select options `name (pk)`. */
export const useProductOptions = (): FieldOption[] => {
  const products = useQuery(listQueryOptions(PRODUCT_API.productList, { page_size: 1000 }));
  return useMemo(() => (products.data?.rows ?? []).map((p) => ({ value: p.pk, text: `${p.name} (${p.pk})` })), [products.data]);
};
