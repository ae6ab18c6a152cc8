import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool as defineTyped } from '../../src/contract/define-tool.ts';
import { defineErrorCodes } from '../../src/contract/error-catalog.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';

/** The specs below are deliberately loose (some are meant to be refused), so their types are erased. */
const defineTool = (spec: Record<string, unknown>) => defineTyped(spec as never);

const readSpec = {
  name: 'things_get',
  title: 'Read a thing',
  description: 'Returns one thing the caller may see. Do not use it to search; use things_search instead.',
  kind: 'read' as const,
  version: '1.2.0',
  input: z.strictObject({ thing_id: z.string().max(20).describe('Thing id.') }),
  output: z.strictObject({ thing_id: z.string() }),
  errors: [],
  scopes: ['things:read'],
  timeoutMs: 1000,
  examples: [{ title: 'one', input: { thing_id: 't1' } }],
  handler: async (input: { thing_id: string }) => outcome.completed({ thing_id: input.thing_id }),
};

const writeSpec = {
  ...readSpec,
  name: 'things_rename',
  kind: 'write',
  mutation: 'update',
  input: z.strictObject({
    thing_id: z.string().max(20),
    name: z.string().max(40),
    idempotency_key: idempotencyKeySchema,
  }),
  examples: [],
  reconcile: async () => ({ settled: false, note: 'never' }),
};

describe('defineTool', () => {
  it('derives namespace, major version and annotations from the contract', () => {
    const tool = defineTool(readSpec);
    expect(tool.namespace).toBe('things');
    expect(tool.majorVersion).toBe(1);
    expect(tool.annotations).toEqual({
      title: 'Read a thing',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const write = defineTool({ ...writeSpec, externalSystems: ['warehouse'] });
    expect(write.annotations.readOnlyHint).toBe(false);
    expect(write.annotations.destructiveHint).toBe(true);
    expect(write.annotations.openWorldHint).toBe(true);
  });

  it.each([
    ['Things_Get', 'snake_case'],
    ['get', 'snake_case'],
    [`things_${'x'.repeat(60)}`, 'snake_case'],
    ['things.get', 'snake_case'],
  ])('refuses the name %s', (name, why) => {
    expect(() => defineTool({ ...readSpec, name })).toThrow(why);
  });

  it('refuses a write tool without an idempotency key, a mutation kind or a reconcile hook', () => {
    expect(() => defineTool({ ...writeSpec, input: z.strictObject({ thing_id: z.string() }) })).toThrow(
      'must take idempotency_key',
    );
    expect(() => defineTool({ ...writeSpec, mutation: undefined })).toThrow('must declare mutation');
    expect(() => defineTool({ ...writeSpec, reconcile: undefined })).toThrow('must provide reconcile');
  });

  it('refuses a cosmetic normalization for the fingerprint on a read tool, which reserves no key', () => {
    const normalizeForFingerprint = (input: Record<string, unknown>) => input;
    expect(() => defineTool({ ...readSpec, normalizeForFingerprint })).toThrow(
      'a read tool reserves no key, so it has no fingerprint to normalize [normalize-for-fingerprint]',
    );
    expect(defineTool({ ...writeSpec, normalizeForFingerprint }).normalizeForFingerprint).toBe(
      normalizeForFingerprint,
    );
  });

  it('refuses a replay marker on a read tool, which is never replayed', () => {
    const markReplay = (result: Record<string, unknown>) => ({ ...result, replayed: true });
    expect(() => defineTool({ ...readSpec, markReplay })).toThrow(
      'a read tool reserves no key, so nothing of it is ever replayed [mark-replay]',
    );
    expect(defineTool({ ...writeSpec, markReplay }).markReplay).toBe(markReplay);
  });

  it('refuses a version that is not semver and a one-word description', () => {
    expect(() => defineTool({ ...readSpec, version: '1.0' })).toThrow('semver');
    expect(() => defineTool({ ...readSpec, description: 'Gets a thing.' })).toThrow('description');
  });
});

describe('mirrored headers (x-mcp-header)', () => {
  it.each([
    [{ missing: 'Thing-Id' }, 'not a top-level input field'],
    [{ thing_id: 'Thing Id' }, 'not an HTTP header name'],
    [{ thing_id: 'Thing:Id' }, 'not an HTTP header name'],
    [{ thing_id: 'Thing-Id', name: 'thing-id' }, 'declared twice'],
  ])('refuses headers %j (%s)', (headers, why) => {
    expect(() => defineTool({ ...writeSpec, headers })).toThrow(why);
  });

  it('marks the field x-mcp-header in the schema and keeps the declaration for the transport', () => {
    const registry = new ToolRegistry({ retentionSeconds: 3600 }).register(
      defineTool({ ...readSpec, headers: { thing_id: 'Thing-Id' } }),
    );
    const tool = registry.get('things_get')!;
    const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.thing_id).toMatchObject({ type: 'string', 'x-mcp-header': 'Thing-Id' });
    expect(tool.paramHeaders).toEqual([{ field: 'thing_id', header: 'Thing-Id', type: 'string' }]);
    expect(registry.listing()[0]).toMatchObject({
      inputSchema: { properties: { thing_id: { 'x-mcp-header': 'Thing-Id' } } },
    });
  });

  it('refuses a header on a field that is not one primitive type', () => {
    const spec = {
      ...readSpec,
      input: z.strictObject({ thing_id: z.string().max(20), tags: z.array(z.string().max(5)).max(3) }),
      examples: [],
      headers: { tags: 'Tags' },
    };
    expect(() => new ToolRegistry({ retentionSeconds: 3600 }).register(defineTool(spec))).toThrow(
      'only a string, number, integer or boolean field',
    );
  });
});

describe('ToolRegistry', () => {
  const registry = () => new ToolRegistry({ retentionSeconds: 3600 });

  it('publishes closed input schemas, the envelope as output schema, and the contract metadata', () => {
    const reg = registry().register(defineTool(readSpec), defineTool(writeSpec));
    const [get, rename] = [reg.get('things_get')!, reg.get('things_rename')!];
    expect(get.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['thing_id'],
    });
    expect(get.outputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(get.outputSchema.properties as object).sort()).toEqual(
      [
        'ok',
        'tool',
        'contract_version',
        'status',
        'operation_id',
        'replayed',
        'code',
        'category',
        'message',
        'retryable',
        'resolution',
        'field_errors',
        'result',
        'warnings',
      ].sort(),
    );
    expect(get.meta.idempotency).toBeUndefined();
    expect(rename.meta.idempotency).toMatchObject({ retention_seconds: 3600, dry_run_reserves_key: false });
    expect(reg.listing().map((t) => t.name)).toEqual(['things_get', 'things_rename']);
  });

  it('refuses an input object that accepts unknown fields', () => {
    const open = defineTool({ ...readSpec, input: z.strictObject({ filter: z.object({ a: z.string() }) }) });
    expect(() => registry().register(open)).toThrow('closed');
  });

  it('refuses an example that does not validate, each problem in one line at its field', () => {
    const bad = defineTool({
      ...readSpec,
      examples: [{ title: 'too long', input: { thing_id: 'x'.repeat(30), extra: 1 } }],
    });
    expect(() => registry().register(bad)).toThrow(
      /example "too long" is invalid: thing_id: Too big: expected string to have <=\d+ characters; \(input\): Unrecognized key: "extra" \[/,
    );
  });

  it('refuses one error code with two meanings, and the same tool twice', () => {
    const a = defineErrorCodes({
      THING_GONE: { category: 'not_found', retryable: false, description: 'Gone.' },
    });
    const b = defineErrorCodes({ THING_GONE: { category: 'state', retryable: false, description: 'Gone.' } });
    const reg = registry().register(defineTool({ ...readSpec, errors: [a.THING_GONE] }));
    expect(() =>
      reg.register(defineTool({ ...readSpec, name: 'things_list', errors: [b.THING_GONE] })),
    ).toThrow('THING_GONE');
    expect(() => reg.register(defineTool(readSpec))).toThrow('registered twice');
    expect(reg.catalog().get('THING_GONE')?.category).toBe('not_found');
  });
});
