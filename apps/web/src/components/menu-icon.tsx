import { createElement } from 'react';
import type { FieldOption } from './field-config';
import { MENU_ICONS } from './menu-icons';

/** The icon of a menu by its name; nothing for a name we do not bundle. */
export const MenuIcon = ({ name }: { name: string }) =>
  MENU_ICONS[name] ? <span aria-hidden>{createElement(MENU_ICONS[name])}</span> : null;

/** Every bundled icon name, as select options. */
export const MENU_ICON_OPTIONS: FieldOption[] = Object.keys(MENU_ICONS).map((name) => ({ value: name, text: name }));
