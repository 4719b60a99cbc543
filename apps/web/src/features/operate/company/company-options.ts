import { COMPANY_TYPES, type CompanyRow } from '@iot/contract';
import type { TreeSelectProps } from 'antd';
import type { FieldOption } from '../../../components/field-config';

/** The nine company types (labels `company.types.<n>`); reused by register and user screens. */
export const COMPANY_TYPE_OPTIONS: FieldOption[] = COMPANY_TYPES.map((v) => ({ value: v, label: `company.types.${v}` }));

export type CompanyNode = CompanyRow & { children?: CompanyNode[] };

/** Company tree (list with tree:1) → TreeSelect data (a company picker for any screen). */
export const companyTreeData = (nodes: CompanyNode[]): NonNullable<TreeSelectProps['treeData']> =>
  nodes.map((c) => ({
    value: c.comp_id,
    title: c.comp_name,
    children: c.children?.length ? companyTreeData(c.children) : undefined,
  }));
