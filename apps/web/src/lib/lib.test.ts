import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { checkPhoneForArea, checkRule, serverRuleMessage } from './form-rules';
import { languageOf, normalizeLanguage, withLang } from './lang';
import { uploadErrorKey } from './upload-error';

describe('uploadErrorKey (SPEC §8)', () => {
  it('maps the trailing status code', () => {
    expect(uploadErrorKey(new Error('Request failed with status code 401'))).toBe('http_error_514');
    expect(uploadErrorKey('failed 405')).toBe('http_error_514');
    expect(uploadErrorKey('failed 518')).toBe('http_error_514');
    expect(uploadErrorKey('failed 400')).toBe('invalid');
    expect(uploadErrorKey('failed 500')).toBe('http_error_500');
    expect(uploadErrorKey(406)).toBe('error_code_406');
    expect(uploadErrorKey('failed 513')).toBe('http_error_513');
    expect(uploadErrorKey('failed 502')).toBe('unknown_error');
    expect(uploadErrorKey(undefined)).toBe('unknown_error');
  });
});

describe('form rules (SPEC §5)', () => {
  it('checks values and lets empty ones pass', () => {
    expect(checkRule('integer', '12')).toBe(true);
    expect(checkRule('integer', '1.5')).toBe(false);
    expect(checkRule('gt0', 0)).toBe(false);
    expect(checkRule('gte0', 0)).toBe(true);
    expect(checkRule('email', 'a@b.co')).toBe(true);
    expect(checkRule('email', 'a@b')).toBe(false);
    expect(checkRule('max4', 'abcde')).toBe(false);
    expect(checkRule('time_range', '00:00-10:00')).toBe(true);
    expect(checkRule('time_range', '0:00-10:00')).toBe(false);
    expect(checkRule('recharge_range', 5000.01)).toBe(false);
    expect(checkRule('free_storage_days', 30)).toBe(true);
    expect(checkRule('version_number', '1.2.3')).toBe(true);
    expect(checkRule('integer', '')).toBe(true);
  });
  it('wants 11 digits for a +86 mobile', () => {
    expect(checkPhoneForArea('13800138000', '+86')).toBe(true);
    expect(checkPhoneForArea('12345', '+86')).toBe(false);
    expect(checkPhoneForArea('12345', '+1')).toBe(true);
  });
  it('translates server rules of a 406 answer', () => {
    const t = ((key: string, opts?: { n?: string }) => (opts?.n ? `${key}:${opts.n}` : key)) as unknown as TFunction;
    expect(serverRuleMessage('required', t)).toBe('rules.required');
    expect(serverRuleMessage('format:email', t)).toBe('rules.email');
    expect(serverRuleMessage('too_small:2', t)).toBe('rules.too_small:2');
    expect(serverRuleMessage('too_big:64', t)).toBe('rules.too_big:64');
    expect(serverRuleMessage('type:number', t)).toBe('rules.number');
    expect(serverRuleMessage('one_of:1,2', t)).toBe('rules.one_of');
    expect(serverRuleMessage('whatever', t)).toBe('rules.invalid');
  });
});

describe('language parameter', () => {
  it('normalizes spellings', () => {
    expect(normalizeLanguage('zh')).toBe('zh-CN');
    expect(normalizeLanguage('zh_TW')).toBe('zh-TW');
    expect(normalizeLanguage('en-US')).toBe('en');
    expect(normalizeLanguage('fr')).toBeNull();
  });
  it('defaults to en on /authorize and /link3_login', () => {
    expect(languageOf('/authorize', '')).toBe('en');
    expect(languageOf('/link3_login', '?x=1')).toBe('en');
    expect(languageOf('/login', '?lang=zh-TW')).toBe('zh-TW');
  });
  it('sets lang and keeps the other parameters', () => {
    expect(withLang('?a=1&lang=en', 'zh-CN')).toBe('?a=1&lang=zh-CN');
    expect(withLang('', 'en')).toBe('?lang=en');
  });
});
