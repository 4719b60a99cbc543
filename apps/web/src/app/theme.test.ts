import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME } from './theme';

/** The theme's text colours against the backgrounds antd draws them on: WCAG AA, 4.5:1. */

type Rgba = [number, number, number, number];
const parse = (color: string): Rgba => {
  if (color.startsWith('#')) {
    const hex = color.slice(1);
    return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).concat(1) as Rgba;
  }
  const parts = (color.match(/rgba?\(([^)]+)\)/)?.[1] ?? '').split(',').map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
};
/** `fg` painted over `bg` (alpha blended), as sRGB channels. */
const over = (fg: Rgba, bg: number[]) => [0, 1, 2].map((i) => (fg[i] ?? 0) * fg[3] + (bg[i] ?? 0) * (1 - fg[3]));
const luminance = (rgb: number[]) => {
  const [r, g, b] = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
};
const contrast = (fg: string, bg: string) => {
  const back = over(parse(bg), [255, 255, 255]);
  const [hi, lo] = [luminance(over(parse(fg), back)), luminance(back)].sort((a, b) => b - a);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};

const token = theme.getDesignToken(THEME) as unknown as Record<string, string>;
const PAGE_BACKGROUNDS = ['#ffffff', token.colorBgLayout, token.colorFillAlter] as string[];

describe('theme contrast', () => {
  const text = ['colorText', 'colorTextSecondary', 'colorTextTertiary', 'colorTextDescription', 'colorTextPlaceholder', 'colorLink'];
  for (const name of [...text, 'colorPrimary', 'colorSuccess', 'colorError', 'colorWarning']) {
    it(`${name} on white, the layout grey and table headers`, () => {
      for (const bg of PAGE_BACKGROUNDS) expect(contrast(token[name] as string, bg), `${name} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('status tags: the status colour on its light background', () => {
    for (const status of ['Success', 'Info', 'Error', 'Warning']) {
      expect(contrast(token[`color${status}`] as string, token[`color${status}Bg`] as string), status).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('coloured tags the screens use: palette 7 on palette 1 (both token spellings)', () => {
    for (const color of ['blue', 'green', 'gold', 'orange', 'volcano', 'cyan', 'purple', 'red']) {
      expect(contrast(token[`${color}7`] as string, token[`${color}1`] as string), color).toBeGreaterThanOrEqual(4.5);
      expect(token[`${color}-7`], color).toBe(token[`${color}7`]);
    }
  });

  it('white text on primary and danger buttons', () => {
    for (const name of ['colorPrimary', 'colorError']) expect(contrast('#ffffff', token[name] as string), name).toBeGreaterThanOrEqual(4.5);
  });
});
