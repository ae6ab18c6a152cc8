import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ContractDocument } from '../../src/contract-artifacts/contract-document.ts';
import { certainlyValid, decidable } from '../../src/contract-artifacts/example-check.ts';

/** Values per schema; TOOLGATE_FUZZ_RUNS=2000 for a long run outside CI. */
const RUNS = Number(process.env.TOOLGATE_FUZZ_RUNS ?? 300);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const contract = JSON.parse(
  readFileSync(new URL('../../contracts/toolgate.contract.json', import.meta.url), 'utf8'),
) as ContractDocument;
const ajv = new AjvJsonSchemaValidator();
const ajvAccepts = (schema: unknown, value: unknown) =>
  ajv.getValidator(schema as Parameters<typeof ajv.getValidator>[0])(value).valid;

type JsonSchema = Record<string, unknown>;

const stray: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', ' ', [], {}),
  fc.string({ maxLength: 10 }),
  fc.integer(),
);
const isoTimestamp = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());

/**
 * JSON values shaped by a published JSON Schema: mostly what it accepts, and at the edges what it
 * does not (lengths one past, bounds one past, impossible dates, extra and missing keys, other types).
 */
function valuesOf(schema: unknown): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null) return stray;
  const s = schema as JsonSchema;
  const sometimes = (valid: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 60, arbitrary: valid }, { weight: 1, arbitrary: stray });
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as unknown[]).map(valuesOf));
  if (Array.isArray(s.enum)) return sometimes(fc.constantFrom(...(s.enum as unknown[])));
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  return fc.oneof(
    ...types.map((type) => {
      switch (type) {
        case 'string': {
          const min = (s.minLength as number | undefined) ?? 0;
          const max = (s.maxLength as number | undefined) ?? 40;
          if (s.format === 'date-time') {
            return sometimes(
              fc.oneof(
                isoTimestamp,
                fc.constantFrom('2026-02-30T10:00:00Z', '2024-02-29T23:59:59+01:00', '2026-13-01T00:00:00Z'),
              ),
            );
          }
          const core =
            typeof s.pattern === 'string'
              ? fc.stringMatching(new RegExp(s.pattern, 'u'), { size: min >= 8 ? 'medium' : 'small' })
              : fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, Math.min(max, 60)) });
          const edges = fc.constantFrom(
            'x'.repeat(Math.max(0, min - 1)),
            'x'.repeat(max + 1),
            '😀'.repeat(Math.max(1, max)),
          );
          return sometimes(fc.oneof({ weight: 15, arbitrary: core }, { weight: 1, arbitrary: edges }));
        }
        case 'integer':
        case 'number': {
          const low = (s.minimum as number | undefined) ?? -100;
          const high = (s.maximum as number | undefined) ?? 100;
          const whole = fc.integer({ min: Math.ceil(low) - 1, max: Math.floor(high) + 1 });
          return sometimes(
            fc.oneof(
              whole,
              whole.map((n) => n + 0.5),
            ),
          );
        }
        case 'boolean':
          return sometimes(fc.boolean());
        case 'null':
          return fc.constant(null);
        case 'array':
          return sometimes(fc.array(valuesOf(s.items), { maxLength: ((s.maxItems as number) ?? 3) + 1 }));
        case 'object': {
          const properties = Object.entries((s.properties ?? {}) as Record<string, unknown>);
          const required = new Set((s.required ?? []) as string[]);
          const record = fc
            .tuple(...properties.map(([, p]) => fc.option(valuesOf(p), { nil: undefined, freq: 4 })))
            .map((values) => {
              const value: Record<string, unknown> = {};
              properties.forEach(([key], i) => {
                if (values[i] !== undefined || required.has(key)) value[key] = values[i];
              });
              // A required key whose value came out undefined is a missing key.
              for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
              return value;
            });
          const extra = record.map((value) => ({ ...value, unexpected: 1 }));
          return fc.oneof(
            { weight: 20, arbitrary: record },
            { weight: 1, arbitrary: extra },
            { weight: 1, arbitrary: stray },
          );
        }
        default:
          return stray;
      }
    }),
  );
}

/** An example with one member replaced by a generated value of the schema, or removed, or added. */
function edited(examples: unknown[], generated: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.constantFrom(...examples), generated, stray, fc.nat())
    .map(([example, other, odd, n]) => {
      const copy = { ...(example as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys[n % Math.max(1, keys.length)] ?? 'unexpected';
      if (n % 3 === 0) delete copy[key];
      else if (n % 3 === 1) copy[key] = odd;
      else copy[key] = (other as Record<string, unknown> | null)?.[key] ?? odd;
      return copy;
    });
}

/** Schemas beyond the reference tools', for the edges the rule relies on. */
const EDGE_SCHEMAS: [string, JsonSchema][] = [
  ['code points', { type: 'string', minLength: 2, maxLength: 2 }],
  ['unicode pattern', { type: 'string', pattern: '^\\p{L}{1,5}$' }],
  ['date-time', { type: 'string', format: 'date-time' }],
  ['integer bounds', { type: 'integer', minimum: 1, maximum: 3 }],
  ['nullable union', { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] }],
  [
    'closed object',
    {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' }, maxItems: 2 } },
      required: ['a'],
      additionalProperties: false,
    },
  ],
];

describe('the quick example check of lint', () => {
  test('decides every input schema of the reference contract, so lint needs no ajv for them', () => {
    for (const tool of contract.tools)
      expect({ tool: tool.name, decidable: decidable(tool.input_schema) }).toEqual({
        tool: tool.name,
        decidable: true,
      });
  });

  test('leaves to ajv what it does not decide: other keywords, patterns that do not compile, unknown formats', () => {
    expect(decidable({ type: 'string', pattern: '(' })).toBe(false);
    expect(decidable({ type: 'object', patternProperties: { '^x': {} } })).toBe(false);
    expect(decidable({ $ref: '#/$defs/x' })).toBe(false);
    expect(decidable({ $id: 'urn:x', type: 'string' })).toBe(false);
    expect(decidable({ type: 'string', format: 'not-a-format' })).toBe(false);
    // ajv-formats checks int32 on numbers; this check applies formats to strings only.
    expect(decidable({ type: 'integer', format: 'int32' })).toBe(false);
    expect(ajvAccepts({ type: 'integer', format: 'int32' }, 2 ** 40)).toBe(false);
    expect(decidable({ type: 'strin' })).toBe(false);
    expect(decidable({ type: 'array', items: [{ type: 'string' }] })).toBe(false);
  });

  test('agrees with ajv on the edges: code points, dates that do not exist, Unicode patterns', () => {
    expect(certainlyValid({ type: 'string', maxLength: 2 }, '😀😀')).toBe(true);
    expect(ajvAccepts({ type: 'string', maxLength: 2 }, '😀😀')).toBe(true);
    expect(certainlyValid({ type: 'string', format: 'date-time' }, '2026-02-30T10:00:00Z')).toBeNull();
    expect(ajvAccepts({ type: 'string', format: 'date-time' }, '2026-02-30T10:00:00Z')).toBe(false);
    expect(certainlyValid({ type: 'string', format: 'date-time' }, '2024-02-29T10:00:00Z')).toBe(true);
    expect(certainlyValid({ type: 'string', pattern: '^\\p{L}+$' }, 'héllo')).toBe(true);
    expect(certainlyValid({ type: 'integer' }, 1.5)).toBeNull();
    expect(certainlyValid({ type: 'object', additionalProperties: false }, { a: 1 })).toBeNull();
  });

  // Each reference schema with its own examples (valid, and each edited into new values) and values of
  // its own shape.
  const schemas: [string, unknown, unknown[]][] = [
    ...contract.tools.map((tool): [string, unknown, unknown[]] => [
      `${tool.name} input`,
      tool.input_schema,
      tool.examples.map((example) => example.input),
    ]),
    ...EDGE_SCHEMAS.map(([name, schema]): [string, unknown, unknown[]] => [name, schema, []]),
  ];
  test.each(schemas)('%s: never finds valid what ajv refuses', (_name, schema, examples) => {
    const generated = valuesOf(schema);
    const values =
      examples.length === 0
        ? generated
        : fc.oneof(
            { weight: 1, arbitrary: fc.constantFrom(...examples) },
            { weight: 1, arbitrary: edited(examples, generated) },
            { weight: 2, arbitrary: generated },
          );
    let trusted = 0;
    let refused = 0;
    fc.assert(
      fc.property(values, (value) => {
        const accepted = ajvAccepts(schema, value);
        if (certainlyValid(schema, value) === true) {
          trusted++;
          expect(accepted).toBe(true);
        }
        if (!accepted) refused++;
      }),
      { numRuns: RUNS },
    );
    // Both answers came up, or the comparison says little.
    expect(trusted).toBeGreaterThan(RUNS / 20);
    expect(refused).toBeGreaterThan(0);
  });

  test('lint of the reference contract does not load ajv', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const { lintContract } = await import('./dist/contract-artifacts/contract-lint.js');
      const { readFileSync } = await import('node:fs');
      const report = lintContract(JSON.parse(readFileSync('contracts/toolgate.contract.json', 'utf8')));
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('/ajv/'));
      process.stdout.write(JSON.stringify({ ok: report.ok, ajvLoaded: loaded.length > 0 }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, ajvLoaded: false });
  });
});
