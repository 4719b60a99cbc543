import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { languageOf, withLang } from './lang';
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

describe('language parameter', () => {
  it('reads the usual spellings of lang (the contract rule the server uses)', () => {
    expect(languageOf('/login', '?lang=zh')).toBe('zh-CN');
    expect(languageOf('/login', '?lang=zh_TW')).toBe('zh-TW');
    expect(languageOf('/login', '?lang=zh-Hant')).toBe('zh-TW');
    expect(languageOf('/login', '?lang=en-US')).toBe('en');
    expect(languageOf('/authorize', '?lang=fr')).toBe('en');
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

describe('ApiError.fieldErrors', () => {
  it('reads the fields a 406 or a 409 names, and nothing else', () => {
    expect(new ApiError(406, 'bad', { fields: { name: 'required' } }).fieldErrors).toEqual({ name: 'required' });
    expect(new ApiError(409, 'taken', { fields: { uid: 'exists' } }).fieldErrors).toEqual({ uid: 'exists' });
    expect(new ApiError(409, 'taken').fieldErrors).toBeNull();
    expect(new ApiError(406, 'bad', { fields: 'x' }).fieldErrors).toBeNull();
    expect(new ApiError(0, 'network', { fields: { a: 'b' } }).fieldErrors).toBeNull();
  });
});
