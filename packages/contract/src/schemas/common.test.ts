import { describe, expect, it } from 'vitest';
import { id, ids, jsonRuleOf, phoneMatchesArea, text, textRuleOf } from './common.js';

describe('phoneMatchesArea', () => {
  it('holds +86 mobile numbers to 11 digits starting with 1', () => {
    expect(phoneMatchesArea('13800138000', '+86')).toBe(true);
    expect(phoneMatchesArea(' 13800138000 ', ' +86 ')).toBe(true);
    expect(phoneMatchesArea('12345', '+86')).toBe(false);
    expect(phoneMatchesArea('23800138000', '+86')).toBe(false);
    expect(phoneMatchesArea('138001380001', '+86')).toBe(false);
  });

  it('holds other areas, or none, to 5–15 digits; an empty phone fits any area', () => {
    expect(phoneMatchesArea('12345', '+1')).toBe(true);
    expect(phoneMatchesArea('12345', undefined)).toBe(true);
    expect(phoneMatchesArea('1234', '+1')).toBe(false);
    expect(phoneMatchesArea('1234567890123456', '+44')).toBe(false);
    expect(phoneMatchesArea('12ab5', '+1')).toBe(false);
    expect(phoneMatchesArea('', '+86')).toBe(true);
  });
});

describe('text rules', () => {
  it('refuses C0 controls and DEL except TAB, LF, CR, and lone surrogates', () => {
    expect(textRuleOf('plain text, 中文, 😀')).toBeNull();
    expect(textRuleOf('a\tb\nc\r\n')).toBeNull();
    for (const c of ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\u007f'])
      expect(textRuleOf(`x${c}y`), JSON.stringify(c)).toBe('format:control_char');
    expect(textRuleOf('\ud800')).toBe('format:unicode');
    expect(textRuleOf('a\udc00')).toBe('format:unicode');
    expect(textRuleOf('\ud83d\ude00')).toBeNull();
  });

  it('checks every key and string of JSON, and its depth', () => {
    expect(jsonRuleOf({ a: [1, 'x', { b: null }] })).toBeNull();
    expect(jsonRuleOf({ a: [{ b: 'x\u0000' }] })).toBe('format:control_char');
    expect(jsonRuleOf({ 'k\u0000': 1 })).toBe('format:control_char');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonRuleOf(deep)).toBe('format:json_depth');
  });

  it('text builders answer the rule; booleans are not ids or text', () => {
    expect(text().safeParse('a\u0000').error?.issues[0]?.message).toBe('format:control_char');
    expect(text().safeParse(12).data).toBe('12');
    expect(text().safeParse(true).success).toBe(false);
    expect(id().safeParse(true).success).toBe(false);
    expect(id().safeParse('7').data).toBe(7);
    expect(ids().safeParse([true]).success).toBe(false);
    expect(ids().safeParse('1,2').data).toEqual([1, 2]);
  });
});
