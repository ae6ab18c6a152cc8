import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool as defineTyped } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { CallAnnotationError, CallAnnotationSet } from '../../src/telemetry/call-annotations.ts';

const defineTool = (spec: Record<string, unknown>) => defineTyped(spec as never);
const readSpec = {
  name: 'things_get',
  title: 'Read a thing',
  description: 'Returns one thing the caller may see. Do not use it to search; use things_search instead.',
  kind: 'read' as const,
  version: '1.0.0',
  input: z.strictObject({
    thing_id: z.string().max(20),
    environment: z.enum(['test', 'production']).default('test'),
    region: z.string().max(20).optional(),
  }),
  output: z.strictObject({ thing_id: z.string() }),
  errors: [],
  scopes: ['things:read'],
  timeoutMs: 1000,
  examples: [],
  handler: async (input: { thing_id: string }) => outcome.completed({ thing_id: input.thing_id }),
};

describe('ctx.annotate', () => {
  it('keeps the last approval and the worst dependency result', () => {
    const set = new CallAnnotationSet();
    set.annotate({ approval: 'none', dependency_result: 'ok' });
    set.annotate({ approval: 'owner_group', dependency_result: 'unknown', exception_id: 'exc_01J9' });
    set.annotate({ dependency_result: 'refused' });
    expect(set.values).toEqual({
      approval: 'owner_group',
      exception_id: 'exc_01J9',
      dependency_result: 'unknown',
    });
  });

  it('refuses unknown keys and unbounded values, naming each, and keeps none of them', () => {
    const set = new CallAnnotationSet();
    set.annotate({ approval: 'none' });
    const bad = {
      approval: 'Needs CAB sign-off from Dana',
      exception_id: 'x'.repeat(65),
      dependency_result: 'fine',
      customer_email: 'a@b.c',
    } as never;
    expect(() => set.annotate(bad)).toThrow(CallAnnotationError);
    try {
      set.annotate(bad);
    } catch (error) {
      const message = (error as Error).message;
      for (const key of ['approval', 'exception_id', 'dependency_result', 'customer_email']) {
        expect(message).toContain(key);
      }
    }
    expect(() => set.annotate({ approval: true } as never)).toThrow('approval must be');
    expect(set.values).toEqual({ approval: 'none' });
  });
});

describe('defineTool telemetry.environment', () => {
  it('accepts a string enum field and reads only its listed values', () => {
    const tool = defineTool({ ...readSpec, telemetry: { environment: 'environment' } });
    expect(tool.environmentOf({ environment: 'production' })).toBe('production');
    expect(tool.environmentOf({ environment: 'moon-base' })).toBeNull();
    expect(defineTool(readSpec).environmentOf({ environment: 'production' })).toBeNull();
  });

  it('refuses a free-text field or a field the input does not have', () => {
    expect(() => defineTool({ ...readSpec, telemetry: { environment: 'region' } })).toThrow(
      'must be a string enum field',
    );
    expect(() => defineTool({ ...readSpec, telemetry: { environment: 'env' } })).toThrow(
      'telemetry.environment env is not an input field',
    );
  });
});
