import { describe, expect, it } from 'vitest';
import { escapeHtml, pickLanguage, renderTemplate, unknownParams } from './templates.js';

describe('message templates', () => {
  it('fills {{name}} placeholders and reports the ones without a value', () => {
    expect(renderTemplate('您好 {{ user_name }}，{{dev_name}} 于 {{alarm_time}} 告警', { user_name: '小明', dev_name: '前门' })).toEqual({
      text: '您好 小明，前门 于 {{alarm_time}} 告警',
      missing: ['alarm_time'],
    });
    expect(renderTemplate('<b>{{x}}</b>', { x: '<script>' }, escapeHtml).text).toBe('<b>&lt;script&gt;</b>');
  });

  it('names placeholders the parameter group does not provide', () => {
    expect(unknownParams('{{count}} new, {{user_name}}', 'total_count')).toEqual([]);
    expect(unknownParams('{{count}} {{alarm_name}}', 'total_count')).toEqual(['alarm_name']);
  });

  it("picks the recipient's language, then its base language, then English, and says when it fell back", () => {
    const rows = [{ lang: 'en' }, { lang: 'zh-CN' }, { lang: 'ja' }];
    expect(pickLanguage(rows, 'zh-CN')).toEqual({ row: { lang: 'zh-CN' }, fellBack: false });
    expect(pickLanguage(rows, 'zh-HK')).toEqual({ row: { lang: 'zh-CN' }, fellBack: true });
    expect(pickLanguage(rows, 'de')).toEqual({ row: { lang: 'en' }, fellBack: true });
    expect(pickLanguage([{ lang: 'ja' }], 'de')).toEqual({ row: { lang: 'ja' }, fellBack: true });
    expect(pickLanguage([], 'en')).toBeNull();
  });
});
