import { Switch, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { MENU_ICON_OPTIONS, MenuIcon } from '../../../components/menu-icon';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { refreshSession } from '../../../lib/account';
import { toastSuccess } from '../../../lib/feedback';
import { menuLabel } from '../../../lib/menu-label';
import type { RowOfResource } from '../../../lib/resource';
import { menuResource } from './menu-resource';

type MenuNode = RowOfResource<typeof menuResource>;

/** Menu tree CRUD (system/menu): names per language, icon, order and the show-in-menu flag. */
export default function MenuPage() {
  const { t, i18n } = useTranslation();
  const access = useAccess();
  const tree = menuResource.useList({});
  const setMenu = menuResource.useSet();

  const columns = useMemo<Columns<typeof menuResource>>(
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

  const form = useMemo<Fields<'menu_admin'>>(() => {
    const parents = (tree.data?.rows ?? []).map((m) => ({ value: m.menu_id, text: menuLabel(m, i18n) }));
    return [
      { name: 'menu_key', only: 'add', extra: 'menu_admin.key_hint' },
      { name: 'menu_name' },
      { name: 'menu_cn_name' },
      { name: 'menu_tw_name' },
      { name: 'menu_parent_id', widget: 'select', options: [{ value: 0, label: 'menu_admin.no_parent' }, ...parents] },
      { name: 'icon', widget: 'select', options: MENU_ICON_OPTIONS },
      { name: 'sort' },
      { name: 'is_show', widget: 'switch' },
    ];
  }, [tree.data, i18n]);

  return (
    <ResourceTable
      resource={menuResource}
      label="menu.system/menu"
      columns={columns}
      form={form}
      formColumns={2}
      titles={{ add: 'menu_admin.add_title', edit: 'menu_admin.edit_title' }}
      canDelete={(row) => !row.sub_menus?.length}
      onMutated={refreshSession}
    />
  );
}
