import type { MenuNode } from '@iot/contract';
import { Switch, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldConfig } from '../../../components/field-config';
import { MENU_ICON_OPTIONS, MenuIcon } from '../../../components/menu-icon';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { refreshSession } from '../../../lib/account';
import { toastSuccess } from '../../../lib/feedback';
import { menuLabel } from '../../../lib/menu-label';
import { menuResource } from './menu-resource';

const SHOW = [1, 0] as [number, number];

/** Menu tree CRUD (system/menu): names per language, icon, order and the show-in-menu flag. */
export default function MenuPage() {
  const { t, i18n } = useTranslation();
  const access = useAccess();
  const tree = menuResource.useList({});
  const setMenu = menuResource.useSet();

  const columns = useMemo<ColumnConfig<MenuNode>[]>(
    () => [
      { key: 'menu_key' },
      { key: 'menu_name' },
      { key: 'menu_cn_name' },
      { key: 'menu_tw_name' },
      {
        key: 'icon',
        render: (v: string) =>
          v ? (
            <Tooltip title={v}>
              <span role="img" aria-label={v}>
                <MenuIcon name={v} />
              </span>
            </Tooltip>
          ) : null,
      },
      { key: 'sort' },
      {
        key: 'is_show',
        render: (v: number, row: MenuNode) => (
          <Switch
            size="small"
            checked={v === 1}
            disabled={!access.isSuper}
            aria-label={t('menu_admin.show_label', { name: menuLabel(row, i18n) })}
            onChange={async (checked) => {
              await setMenu.mutateAsync({ menu_id: row.menu_id, is_show: checked ? 1 : 0 });
              toastSuccess(t('common.set_success'));
              await refreshSession();
            }}
          />
        ),
      },
    ],
    [access.isSuper, setMenu, t, i18n],
  );

  const form = useMemo<FieldConfig[]>(() => {
    const parents = (tree.data?.rows ?? []).map((m) => ({ value: m.menu_id, text: menuLabel(m, i18n) }));
    return [
      { name: 'menu_key', required: true, only: 'add', extra: 'menu_admin.key_hint', maxLength: 64 },
      { name: 'menu_name', required: true, maxLength: 64 },
      { name: 'menu_cn_name', maxLength: 64, emptyValue: '' },
      { name: 'menu_tw_name', maxLength: 64, emptyValue: '' },
      {
        name: 'menu_parent_id',
        type: 'select',
        required: true,
        initialValue: 0,
        options: [{ value: 0, label: 'menu_admin.no_parent' }, ...parents],
      },
      { name: 'icon', type: 'select', options: MENU_ICON_OPTIONS, emptyValue: '' },
      { name: 'sort', type: 'integer', initialValue: 0, emptyValue: 0 },
      { name: 'is_show', type: 'switch', switchValues: SHOW, initialValue: 1 },
    ];
  }, [tree.data, i18n]);

  return (
    <ResourceTable<MenuNode>
      resource={menuResource}
      i18nPrefix="menu_admin"
      label="menu.system/menu"
      columns={columns}
      form={form}
      formColumns={2}
      paged={false}
      childrenField="sub_menus"
      titles={{ add: 'menu_admin.add_title', edit: 'menu_admin.edit_title' }}
      canAdd={access.isSuper}
      canEdit={access.isSuper}
      canDelete={(row) => access.isSuper && !row.sub_menus?.length}
      onMutated={refreshSession}
    />
  );
}
