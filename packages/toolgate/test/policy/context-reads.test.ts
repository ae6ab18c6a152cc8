import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { describe, expect, test } from 'vitest';
import { contextReadsOf } from '../../src/policy/context-reads.ts';

const conditionsOf = (text: string) => {
  const json = cedar.policyToJson(text);
  if (json.type !== 'success') throw new Error('policy does not parse');
  return json.json.conditions;
};

describe('the context a policy reads', () => {
  test('names the input attributes it reads one by one, nested or tested with has', () => {
    const reads = contextReadsOf(
      conditionsOf(
        'permit (principal, action, resource) when { context.input.environment == "production" && context.input has risk && context.input.address.country == "US" };',
      ),
    );
    expect(reads.whole.size).toBe(0);
    expect([...(reads.attributes.get('input') ?? [])].sort()).toEqual(['address', 'environment', 'risk']);
  });

  test('needs a record whole when it is used as a value, and everything when context is', () => {
    expect(
      contextReadsOf(conditionsOf('permit (principal, action, resource) when { context.facts == {} };'))
        .whole,
    ).toEqual(new Set(['facts']));
    expect(
      contextReadsOf(conditionsOf('permit (principal, action, resource) when { context == {} };')).whole,
    ).toEqual(new Set(['*']));
  });
});
