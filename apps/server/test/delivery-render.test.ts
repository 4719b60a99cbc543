import { escapeHtml, normalizeLang, pickTemplate, placeholdersOf, render, TEMPLATE_PARAM_GROUPS } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextRetry, type RetryPolicy, retryDelayMs } from '../src/platform/delivery/retry.js';

describe('render', () => {
  it('fills the parameters of the three groups in title and body', () => {
    const out = render(
      {
        title: '{{app_name}} 告警：{{ dev_name }}',
        body: '设备 {{dev_name}}（{{uid}}）在 {{alarm_time}} 触发 {{alarm_type}} 告警，共 {{count}} 次。',
      },
      { app_name: '智能看家', dev_name: '客厅摄像头', uid: 'UID-0001', alarm_time: '2025-01-02 03:04:05', alarm_type: 3, count: 12 },
      { lang: 'zh-CN' },
    );
    expect(out).toEqual({
      title: '智能看家 告警：客厅摄像头',
      body: '设备 客厅摄像头（UID-0001）在 2025-01-02 03:04:05 触发 3 告警，共 12 次。',
      missing: [],
      unknown: [],
    });
  });

  it('leaves a placeholder without a value as written and reports it; reports names outside the groups', () => {
    const out = render(
      { title: 'Code {{code}}', body: 'Hi {{user_name}}, {{code}} {{colour}} {{shade}}' },
      { user_name: 'Ann', colour: 'red' },
    );
    expect(out.title).toBe('Code {{code}}');
    expect(out.body).toBe('Hi Ann, {{code}} red {{shade}}');
    expect(out.missing).toEqual(['code', 'shade']);
    expect(out.unknown).toEqual(['colour', 'shade']);
  });

  it('leaves other braces alone: single braces, the dollar form, JSON', () => {
    const dollar = '$';
    const body = `{"a": {"b": 1}} ${dollar}{code} {code} {{ code }}`;
    expect(render({ title: '', body }, { code: '42' }).body).toBe(`{"a": {"b": 1}} ${dollar}{code} {code} 42`);
  });

  it('escapes values in an HTML body only, never the template itself nor the title', () => {
    const out = render(
      { title: 'Hi {{user_name}}', body: '<p>Hi <b>{{user_name}}</b></p>' },
      { user_name: `<script>"x" & 'y'</script>` },
      { html: true },
    );
    expect(out.title).toBe(`Hi <script>"x" & 'y'</script>`);
    expect(out.body).toBe('<p>Hi <b>&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;</b></p>');
    expect(render({ title: '', body: '{{user_name}}' }, { user_name: '<b>' }).body).toBe('<b>');
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('formats dates in the recipient language and time zone', () => {
    const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const en = render({ title: '', body: '{{time}}' }, { time: at }, { lang: 'en' }).body;
    const zh = render({ title: '', body: '{{time}}' }, { time: at }, { lang: 'zh-CN', timeZone: 'Asia/Shanghai' }).body;
    expect(en).toContain('2025');
    expect(en).toContain('3:04:05');
    expect(zh).toContain('2025年1月2日');
    expect(zh).toContain('11:04:05');
  });

  it('does not read inherited properties as values', () => {
    expect(render({ title: '', body: '{{constructor}}' }, {}).missing).toEqual(['constructor']);
  });

  it('lists placeholders and the groups', () => {
    expect(placeholdersOf('{{a}} {{ b }} {{a}}')).toEqual(['a', 'b']);
    expect(Object.keys(TEMPLATE_PARAM_GROUPS)).toEqual(['system', 'total_count', 'alarm']);
  });
});

describe('pickTemplate', () => {
  const rows = [
    { lang: 'en', title: 'Hello' },
    { lang: 'zh-CN', title: '你好' },
    { lang: 'zh-TW', title: '妳好' },
    { lang: 'de-DE', title: 'Hallo' },
  ];

  it('takes the recipient language, whatever its spelling', () => {
    expect(pickTemplate(rows, 'zh_cn')).toMatchObject({ lang: 'zh-CN', match: 'exact', fellBack: false });
    expect(pickTemplate(rows, 'EN')).toMatchObject({ lang: 'en', match: 'exact', fellBack: false });
  });

  it('takes the same language in another region; Chinese by script', () => {
    expect(pickTemplate(rows, 'en-US')).toMatchObject({ lang: 'en', match: 'language', fellBack: false });
    expect(pickTemplate(rows, 'de')).toMatchObject({ lang: 'de-DE', match: 'language', fellBack: false });
    expect(pickTemplate(rows, 'zh-HK')).toMatchObject({ lang: 'zh-TW', match: 'language' });
    expect(pickTemplate(rows, 'zh-Hant')).toMatchObject({ lang: 'zh-TW', match: 'language' });
    expect(pickTemplate(rows, 'zh')).toMatchObject({ lang: 'zh-CN', match: 'language' });
    expect(pickTemplate(rows, 'zh-SG')).toMatchObject({ lang: 'zh-CN', match: 'language' });
    // No traditional template: the simplified one is still closer than English.
    expect(pickTemplate([rows[0]!, rows[1]!], 'zh-TW')).toMatchObject({ lang: 'zh-CN', match: 'language' });
  });

  it('falls back to English, then to any, and says so', () => {
    expect(pickTemplate(rows, 'fr')).toMatchObject({ lang: 'en', match: 'english', fellBack: true, template: { title: 'Hello' } });
    expect(pickTemplate(rows, undefined)).toMatchObject({ lang: 'en', fellBack: false });
    expect(pickTemplate({ 'zh-CN': '你好', 'de-DE': 'Hallo' }, 'fr')).toEqual({
      template: '你好',
      lang: 'zh-CN',
      match: 'any',
      fellBack: true,
    });
    expect(pickTemplate([], 'en')).toBeUndefined();
  });

  it('normalizes language tags', () => {
    expect(normalizeLang('zh_hant_tw')).toBe('zh-Hant-TW');
    expect(normalizeLang(' EN-us ')).toBe('en-US');
  });
});

describe('retry policy', () => {
  const noJitter = () => 0;

  it('doubles from 30 s, capped, without jitter when random is 0', () => {
    const delays = [1, 2, 3, 4, 5, 6, 10, 40].map((n) => retryDelayMs(n, DEFAULT_RETRY_POLICY, noJitter));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 3_600_000, 3_600_000]);
    expect(retryDelayMs(2000, DEFAULT_RETRY_POLICY, noJitter)).toBe(3_600_000);
  });

  it('jitter only lowers the delay, by at most the ratio', () => {
    for (let n = 1; n <= 8; n++) {
      const full = retryDelayMs(n, DEFAULT_RETRY_POLICY, noJitter);
      for (const r of [0.1, 0.5, 0.999]) {
        const d = retryDelayMs(n, DEFAULT_RETRY_POLICY, () => r);
        expect(d).toBeLessThanOrEqual(full);
        expect(d).toBeGreaterThanOrEqual(full * (1 - DEFAULT_RETRY_POLICY.jitterRatio));
      }
    }
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(27_000);
  });

  it("honours a provider's Retry-After within the cap", () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, noJitter, 90_000)).toBe(90_000);
    expect(retryDelayMs(3, DEFAULT_RETRY_POLICY, noJitter, 1_000)).toBe(120_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, noJitter, 10 * 3_600_000)).toBe(3_600_000);
  });

  it('refuses attempt numbers below 1', () => {
    expect(() => retryDelayMs(0)).toThrow(RangeError);
    expect(() => retryDelayMs(1.5)).toThrow(RangeError);
  });

  it('decides: delivered, permanent, retry at a time, exhausted after max attempts', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 };
    expect(nextRetry(1, { ok: true }, now, policy)).toEqual({ retry: false, reason: 'delivered' });
    expect(nextRetry(1, { ok: false, retryable: false }, now, policy)).toEqual({ retry: false, reason: 'permanent' });
    expect(nextRetry(1, { ok: false, retryable: true }, now, policy, noJitter)).toEqual({
      retry: true,
      delayMs: 30_000,
      at: new Date('2025-01-01T00:00:30Z'),
    });
    expect(nextRetry(2, { ok: false, retryable: true }, now, policy, noJitter)).toMatchObject({ retry: true, delayMs: 60_000 });
    expect(nextRetry(3, { ok: false, retryable: true }, now, policy)).toEqual({ retry: false, reason: 'exhausted' });
  });
});
