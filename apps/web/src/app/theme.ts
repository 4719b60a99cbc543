import type { ThemeConfig } from 'antd';

/**
 * antd's theme for every screen, in one place. antd's default text, link and status colours are
 * lighter than WCAG AA asks of text (4.5:1, axe's colour-contrast rule): secondary text,
 * descriptions, empty states, select placeholders, link buttons, status and coloured tags. The
 * tokens below darken exactly those, within antd's own palettes (theme.test.ts checks every pair
 * a screen draws; e2e/a11y.e2e.test.ts runs axe on every menu route).
 */
export const THEME: ThemeConfig = {
  token: {
    // blue-7: the primary (buttons, selected menu), links and "processing" (the default blue is 4.1:1).
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    colorLink: '#0958d9',
    // Status colours are text too (status tags, danger link buttons, form errors): green-8, red-7, gold-9.
    // Their light backgrounds stay antd's (derived from these darker seeds they would turn grey).
    colorSuccess: '#237804',
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    colorError: '#cf1322',
    colorWarning: '#874d00',
    colorWarningBg: '#fffbe6',
    colorWarningBorder: '#ffe58f',
    // Secondary text, descriptions, labels of Descriptions, Statistic titles (default 0.45: 3.4:1).
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    // Placeholders (default 0.25: 1.8:1); still lighter than a value (0.88).
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    // Coloured tags draw palette 7 on palette 1: the light palettes' 7 are 2.8–3.4:1, so their 8
    // (both spellings of the token: antd writes its CSS variable from the hyphenated one).
    green7: '#237804',
    'green-7': '#237804',
    gold7: '#874d00',
    'gold-7': '#874d00',
    orange7: '#ad4e00',
    'orange-7': '#ad4e00',
    cyan7: '#006d75',
    'cyan-7': '#006d75',
    volcano7: '#ad2102',
    'volcano-7': '#ad2102',
  },
};
