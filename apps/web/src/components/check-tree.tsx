import type { MenuNode } from '@iot/contract';
import { Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { menuLabel } from '../lib/menu-label';

export interface CheckTreeProps {
  menus: MenuNode[];
  /** Checked menu ids; may include half-checked parents (see onChange). */
  value?: number[];
  /**
   * Gets the fully checked ids plus the half-checked parents: a role that
   * holds some children of a group holds the group too, so the sidebar can
   * show it. When reading `value`, parents are ignored and re-derived from
   * their children (a parent whose children are all checked shows checked).
   */
  onChange?: (ids: number[]) => void;
  disabled?: boolean;
  /** Accessible name. */
  'aria-label'?: string;
}

const toTreeData = (menus: MenuNode[], label: (m: MenuNode) => string): DataNode[] =>
  menus.map((m) => ({
    key: m.menu_id,
    title: label(m),
    children: m.sub_menus?.length ? toTreeData(m.sub_menus, label) : undefined,
  }));

const leafIds = (menus: MenuNode[]): Set<number> => {
  const out = new Set<number>();
  const walk = (list: MenuNode[]) => {
    for (const m of list) {
      if (m.sub_menus?.length) walk(m.sub_menus);
      else out.add(m.menu_id);
    }
  };
  walk(menus);
  return out;
};

/** Checkbox tree over the menu tree with parent/child selection (role editing). */
export const CheckTree = ({ menus, value = [], onChange, disabled, ...rest }: CheckTreeProps) => {
  const { i18n } = useTranslation();
  const treeData = useMemo(() => toTreeData(menus, (m) => menuLabel(m, i18n)), [menus, i18n, i18n.language]);
  const leaves = useMemo(() => leafIds(menus), [menus]);
  const checkedKeys = value.filter((id) => leaves.has(id));
  return (
    // A long tree scrolls inside its box so the dialog's other fields and buttons stay in reach.
    <fieldset
      aria-label={rest['aria-label']}
      style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8, margin: 0, minWidth: 0, maxHeight: 360, overflow: 'auto' }}
    >
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        disabled={disabled}
        treeData={treeData}
        checkedKeys={checkedKeys}
        onCheck={(checked, info) => {
          const full = (Array.isArray(checked) ? checked : checked.checked).map(Number);
          const half = (info.halfCheckedKeys ?? []).map(Number);
          onChange?.([...new Set([...full, ...half])]);
        }}
      />
    </fieldset>
  );
};
