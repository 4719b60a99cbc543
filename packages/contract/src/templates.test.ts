import { describe, expect, it } from 'vitest';
import { render, SAMPLE_PARAMS, sampleParams, TEMPLATE_PARAM_GROUPS, unknownParams } from './templates.js';

describe('template parameter groups', () => {
  it('a template may name the system parameters and those of its own group', () => {
    expect(unknownParams('{{count}} new, {{user_name}}', 'total_count')).toEqual([]);
    expect(unknownParams('{{count}} {{alarm_name}} {{nope}}', 'total_count')).toEqual(['alarm_name', 'nope']);
    expect(unknownParams('{{dev_name}} {{app_name}}', 'alarm')).toEqual([]);
  });

  it('has a sample value for every parameter, so a preview or test send of any group fills everything', () => {
    for (const group of Object.keys(TEMPLATE_PARAM_GROUPS) as (keyof typeof TEMPLATE_PARAM_GROUPS)[]) {
      const params = sampleParams(group);
      const body = Object.keys(params)
        .map((n) => `{{${n}}}`)
        .join(' ');
      expect(render({ title: '', body }, params).missing).toEqual([]);
    }
    expect(Object.values(SAMPLE_PARAMS).every((v) => v !== '')).toBe(true);
    expect(sampleParams('unknown-group')).toEqual(sampleParams('system'));
  });
});
