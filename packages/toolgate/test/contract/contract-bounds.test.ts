import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACT_BOUNDS, REPLY_LIMIT_BYTES } from '../../src/contract/contract-bounds.ts';
import { defineTool as defineTyped } from '../../src/contract/define-tool.ts';
import { defineErrorCodes } from '../../src/contract/error-catalog.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { ToolContractError } from '../../src/contract/tool-contract-error.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { DEFAULT_REPLY_LIMIT_BYTES } from '../../src/transport/mcp-endpoint.ts';

/** Some specs below are meant to be refused, so their types are erased. */
const defineTool = (spec: Record<string, unknown>) => defineTyped(spec as never);

const errors = defineErrorCodes({
  WIDE_NOT_FOUND: { category: 'not_found', retryable: false, description: 'No such wide record exists.' },
});

function readTool(name: string, input: z.ZodObject, extra: Record<string, unknown> = {}) {
  return defineTool({
    name,
    title: 'Read a record',
    description: 'Returns one record by its fields. Do not use it to change records; nothing changes.',
    kind: 'read',
    version: '1.0.0',
    input,
    output: z.strictObject({ found: z.boolean() }),
    errors: [errors.WIDE_NOT_FOUND],
    scopes: ['wide:read'],
    timeoutMs: 1_000,
    examples: [],
    handler: async () => outcome.completed({ found: false }),
    ...extra,
  });
}

function wideObject(properties: number): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (let i = 0; i < properties; i += 1) shape[`field_${i}`] = z.string().max(10).optional();
  return z.strictObject(shape);
}

function refusal(work: () => unknown): ToolContractError {
  try {
    work();
  } catch (error) {
    if (error instanceof ToolContractError) return error;
    throw error;
  }
  throw new Error('expected a ToolContractError');
}

describe('contract bounds at registration', () => {
  it('refuses a 30,000-property input schema by name, before parsing its examples, and registers nothing', () => {
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const wide = readTool('wide_get', wideObject(30_000), {
      examples: [{ title: 'One field', input: { field_0: 'a' } }],
    });
    const error = refusal(() => registry.register(wide));
    expect(error.problems).toEqual([
      {
        tool: 'wide_get',
        rule: 'schema-bounds',
        message: `input schema declares 30000 properties in one object at /; at most ${CONTRACT_BOUNDS.propertiesPerObject} are allowed`,
      },
    ]);
    expect(registry.get('wide_get')).toBeUndefined();
    expect(registry.listing()).toEqual([]);
    // A refused tool leaves no code in the shared catalog.
    expect(registry.catalog().has('WIDE_NOT_FOUND')).toBe(false);
  });

  it('counts the properties of nested objects too, naming where the wide one sits', () => {
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const input = z.strictObject({ outer: wideObject(CONTRACT_BOUNDS.propertiesPerObject + 1) });
    const error = refusal(() => registry.register(readTool('nested_get', input)));
    expect(error.problems[0]).toMatchObject({ tool: 'nested_get', rule: 'schema-bounds' });
    expect(error.problems[0]?.message).toBe(
      `input schema declares 1001 properties in one object at /properties/outer; at most ${CONTRACT_BOUNDS.propertiesPerObject} are allowed`,
    );
  });

  it('accepts an object at the property bound and parses against it', () => {
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const input = wideObject(CONTRACT_BOUNDS.propertiesPerObject);
    registry.register(readTool('wide_get', input, { examples: [{ title: 'one', input: { field_0: 'a' } }] }));
    expect(registry.listing()).toHaveLength(1);
  });

  it('refuses an output schema nested past the depth bound, naming the tool', () => {
    let nested: z.ZodType = z.string();
    for (let i = 0; i < 40; i += 1) nested = z.strictObject({ inner: nested });
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const error = refusal(() =>
      registry.register(readTool('deep_get', z.strictObject({ id: z.string().max(5) }), { output: nested })),
    );
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ tool: 'deep_get', rule: 'schema-bounds' });
    expect(error.problems[0]?.message).toContain(
      `output schema nests deeper than ${CONTRACT_BOUNDS.schemaDepth} levels`,
    );
    expect(registry.get('deep_get')).toBeUndefined();
  });

  it('refuses a tool whose tools/list entry exceeds the reply cap, naming its size and the cap', () => {
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const huge = readTool('huge_get', z.strictObject({ id: z.string().max(5) }), {
      description: `Returns one record. ${'Every word of this description is listed. '.repeat(110_000)}`,
    });
    const error = refusal(() => registry.register(huge));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ tool: 'huge_get', rule: 'listing-size' });
    expect(error.problems[0]?.message).toMatch(
      new RegExp(
        `^its tools/list entry is \\d+ bytes; a listing must fit the ${REPLY_LIMIT_BYTES}-byte reply cap`,
      ),
    );
    expect(registry.listing()).toEqual([]);
  });

  it('refuses the tool that would take the whole listing past the cap, and keeps serving the ones before it', () => {
    const registry = new ToolRegistry({ retentionSeconds: 60 });
    const sized = (name: string) =>
      readTool(name, z.strictObject({ id: z.string().max(5) }), {
        description: `Returns one record. ${'Listed words. '.repeat(110_000)}`,
      });
    registry.register(sized('big_one'), sized('big_two'));
    const error = refusal(() => registry.register(sized('big_three')));
    expect(error.problems[0]).toMatchObject({ tool: 'big_three', rule: 'listing-size' });
    expect(error.problems[0]?.message).toMatch(/the tools\/list listing would be \d+ bytes/);
    expect(registry.listing().map((tool) => tool.name)).toEqual(['big_one', 'big_two']);
    const bytes = Buffer.byteLength(JSON.stringify({ tools: registry.listing() }));
    expect(bytes).toBeLessThan(DEFAULT_REPLY_LIMIT_BYTES);
  });

  it('the transport answers within the same cap the registry holds listings to', () => {
    expect(DEFAULT_REPLY_LIMIT_BYTES).toBe(REPLY_LIMIT_BYTES);
  });
});
