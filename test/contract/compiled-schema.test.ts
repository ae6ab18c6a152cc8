import { referenceDomains } from '@toolgate/domains';
import fc from 'fast-check';
import { compiledSchema } from 'toolgate';
import { loadServedRegistry } from 'toolgate/server';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { postalAddressViewSchema } from '../../packages/domains/src/orders/postal-address.ts';

/** Values per schema; TOOLGATE_FUZZ_RUNS=2000 for a long run outside CI. */
const RUNS = Number(process.env.TOOLGATE_FUZZ_RUNS ?? 150);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  checks?: {
    _zod: {
      def: {
        check: string;
        format?: string;
        pattern?: RegExp;
        minimum?: number;
        maximum?: number;
        length?: number;
        value?: number;
      };
    };
  }[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A value of some other type than the schema wants, or a boundary of the type it wants. */
const stray: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    true,
    0,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53,
    '',
    ' ',
    [],
    {},
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
);

const WORD = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));
const TEXT = fc.oneof({ weight: 8, arbitrary: WORD }, fc.constantFrom(' ', '-', '.', ',', "'", 'é', '東'));

const isoTimestamp = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** Visible text of a length within the bounds, starting and ending with a letter or digit. */
function textBetween(min: number, max: number): fc.Arbitrary<string> {
  if (max < 2) return fc.string({ unit: WORD, minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
  return fc
    .tuple(WORD, fc.string({ unit: TEXT, minLength: Math.max(0, min - 2), maxLength: max - 2 }), WORD)
    .map(([a, body, b]) => a + body + b);
}

/**
 * Values shaped by a zod schema: mostly what it accepts (strings from its patterns and within its
 * lengths, padded with spaces where it trims, numbers within bounds, enum members, nested objects),
 * and now and then a stray value, a missing key or an extra key, so both sides of every check are hit.
 */
function valuesOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  // Each leaf deviates now and then (a stray value, a length or bound just outside), so that a whole
  // object is still accepted often enough for its parsed value to be compared.
  const sometimes = (valid: fc.Arbitrary<unknown>, deviant: fc.Arbitrary<unknown> = stray) =>
    fc.oneof(
      { weight: 40, arbitrary: valid },
      { weight: 1, arbitrary: deviant },
      { weight: 1, arbitrary: stray },
    );
  switch (def.type) {
    case 'string': {
      const checks = (def.checks ?? []).map((c) => c._zod.def);
      const pattern = checks.find((c) => c.check === 'string_format' && c.pattern)?.pattern;
      const exact = checks.find((c) => c.check === 'length_equals')?.length;
      const min = exact ?? checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = exact ?? checks.find((c) => c.check === 'max_length')?.maximum ?? 40;
      const trims = checks.some((c) => c.check === 'overwrite');
      // Longer strings where the schema wants them long; one outside the bounds is compared as a refusal.
      const core = pattern
        ? min >= 8
          ? fc.stringMatching(pattern, { size: 'medium' }).filter((t) => t.length >= min && t.length <= max)
          : fc.stringMatching(pattern)
        : min <= 24 && max >= 24
          ? // Strings a refinement may want as a date and time.
            fc.oneof(textBetween(min, Math.min(max, 80)), isoTimestamp)
          : textBetween(min, Math.min(max, 80));
      const valid = trims
        ? fc
            .tuple(fc.constantFrom('', '', ' '), core, fc.constantFrom('', '', ' \t'))
            .map(([a, t, b]) => a + t + b)
        : core;
      const outside = fc.constantFrom(
        'x'.repeat(Math.max(0, min - 1)),
        'x'.repeat(max + 1),
        ' '.repeat(Math.max(1, min)),
      );
      return sometimes(valid, outside);
    }
    case 'number': {
      const checks = (def.checks ?? []).map((c) => c._zod.def);
      const low = checks.find((c) => c.check === 'greater_than')?.value ?? -1000;
      const high = checks.find((c) => c.check === 'less_than')?.value ?? 1000;
      const within = fc.integer({ min: Math.ceil(low), max: Math.floor(high) });
      return sometimes(within, fc.constantFrom(Math.ceil(low) - 1, Math.floor(high) + 1, low + 0.5));
    }
    case 'boolean':
      return sometimes(fc.boolean());
    case 'null':
      return sometimes(fc.constant(null));
    case 'enum':
      return sometimes(fc.constantFrom(...Object.values(def.entries ?? {})));
    case 'literal':
      return sometimes(fc.constantFrom(...(def.values ?? [])));
    case 'nullable':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: valuesOf(def.innerType!) },
      );
    case 'optional':
    case 'default':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: valuesOf(def.innerType!) },
      );
    case 'array':
      return sometimes(fc.array(valuesOf(def.element!), { maxLength: 4 }));
    case 'record':
      return sometimes(
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), valuesOf(def.valueType!), { maxKeys: 3 }),
      );
    case 'object': {
      const fields = Object.entries(def.shape ?? {});
      const whole = fc.tuple(...fields.map(([, field]) => valuesOf(field))).map((values) => {
        const value: Record<string, unknown> = {};
        fields.forEach(([key], i) => {
          if (values[i] !== undefined) value[key] = values[i];
        });
        return value;
      });
      const keys = fields.map(([key]) => key);
      const edited = fc
        .tuple(whole, fc.constantFrom(...keys, 'unexpected'), stray)
        .map(([value, key, extra]) => {
          const copy = { ...value };
          if (key in copy) delete copy[key];
          else copy[key] = extra;
          return copy;
        });
      return fc.oneof(
        { weight: 20, arbitrary: whole },
        { weight: 1, arbitrary: keys.length > 0 ? edited : whole },
        { weight: 1, arbitrary: stray },
      );
    }
    default:
      return stray;
  }
}

/** The published input and output schemas of every reference tool, and a domain schema used on reads. */
async function schemasUnderTest(): Promise<[string, z.ZodType][]> {
  const registry = await loadServedRegistry(referenceDomains);
  const schemas: [string, z.ZodType][] = [['orders: stored postal address', postalAddressViewSchema]];
  for (const tool of registry.all()) {
    schemas.push([`${tool.definition.name} input`, tool.definition.input]);
    schemas.push([`${tool.definition.name} output`, tool.definition.output]);
  }
  return schemas;
}

const schemas = await schemasUnderTest();

describe('compiled schemas', () => {
  test('are compiled, once per schema', () => {
    for (const [, schema] of schemas) {
      const parser = compiledSchema(schema);
      expect(parser).not.toBe(schema);
      expect(compiledSchema(schema)).toBe(parser);
    }
  });

  test.each(schemas)('%s: accepts, parses and refuses exactly as zod does', (_name, schema) => {
    const parser = compiledSchema(schema);
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(valuesOf(schema), (value) => {
        const expected = schema.safeParse(value, { reportInput: true });
        const actual = parser.safeParse(value, { reportInput: true });
        expect(actual.success).toBe(expected.success);
        if (expected.success && actual.success) {
          accepted++;
          // The same value, with its keys in the same order (the envelope is serialized from it).
          expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
          expect(actual.data).toEqual(expected.data);
        } else if (!expected.success && !actual.success) {
          refused++;
          expect(actual.error.issues).toEqual(expected.error.issues);
        }
      }),
      { numRuns: RUNS },
    );
    // Both sides of the schema were exercised, or the comparison says little.
    expect(accepted).toBeGreaterThan(RUNS / 10);
    expect(refused).toBeGreaterThan(0);
  });
});
