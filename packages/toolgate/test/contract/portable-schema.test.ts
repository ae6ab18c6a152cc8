import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema, type JsonSchema, outputJsonSchema } from '../../src/contract/json-schema.ts';
import { portableSchema } from '../../src/contract/portable-schema.ts';

const zodJson = (schema: z.ZodType): JsonSchema => {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  delete json.$schema;
  return json;
};

/** Every subschema with a type list, or with no keyword that constrains a value (the Inspector's two warnings). */
function unportable(node: unknown, path = ''): string[] {
  if (node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => unportable(item, `${path}/${i}`));
  const schema = node as JsonSchema;
  const found: string[] = [];
  if (Array.isArray(schema.type)) found.push(`${path}: type list`);
  const annotations = ['description', 'title', 'default', 'examples', 'deprecated'];
  if (Object.keys(schema).every((key) => annotations.includes(key))) found.push(`${path}: untyped`);
  for (const [key, child] of Object.entries(schema)) {
    if (['default', 'examples', 'enum', 'const'].includes(key)) continue;
    if (key === 'properties' || key === '$defs') {
      for (const [name, value] of Object.entries(child as JsonSchema))
        found.push(...unportable(value, `${path}/${key}/${name}`));
    } else if (typeof child === 'object') found.push(...unportable(child, `${path}/${key}`));
  }
  return found;
}

const mixed = z.strictObject({
  note: z.string().nullable().describe('A note, or null.'),
  count: z.int().min(0).max(9).nullable(),
  mood: z.enum(['calm', 'busy']).nullable(),
  extra: z.record(z.string(), z.unknown()),
  anything: z.unknown().describe('Whatever the caller sent.'),
  bag: z.array(z.unknown()).max(3),
  either: z.union([z.string().max(4), z.number().max(5)]).nullable(),
  codes: z.record(z.string(), z.string().max(3)),
});

describe('portable JSON Schema', () => {
  test('writes nullable as anyOf branches of one type, keeping each bound on its branch', () => {
    const json = portableSchema(zodJson(mixed)) as { properties: Record<string, JsonSchema> };
    expect(zodJson(mixed)).toMatchObject({ properties: { note: { type: ['string', 'null'] } } });
    expect(json.properties.note).toEqual({
      description: 'A note, or null.',
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
    const union = {
      type: ['string', 'integer', 'null'],
      maxLength: 5,
      maximum: 9,
      default: 3,
      enum: ['a', 3, null],
    };
    expect(portableSchema({ type: 'object', properties: { union } })).toEqual({
      type: 'object',
      properties: {
        union: {
          default: 3,
          enum: ['a', 3, null],
          anyOf: [{ type: 'string', maxLength: 5 }, { type: 'integer', maximum: 9 }, { type: 'null' }],
        },
      },
    });
  });

  test('states what an open value is instead of leaving a schema with no keyword', () => {
    const json = portableSchema(zodJson(mixed)) as { properties: Record<string, JsonSchema> };
    expect(json.properties.extra).toEqual({ type: 'object', additionalProperties: true });
    expect(json.properties.bag).toEqual({ type: 'array', maxItems: 3 });
    expect(json.properties.anything).toEqual({
      description: 'Whatever the caller sent.',
      anyOf: ['null', 'boolean', 'object', 'array', 'number', 'string'].map((type) => ({ type })),
    });
    expect(json.properties.codes).toEqual({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 3 },
    });
    expect(unportable(zodJson(mixed))).toEqual([
      '/properties/note: type list',
      '/properties/extra/additionalProperties: untyped',
      '/properties/anything: untyped',
      '/properties/bag/items: untyped',
    ]);
    expect(unportable(json)).toEqual([]);
  });

  test('the registry publishes only portable input and output schemas', () => {
    expect(unportable(inputJsonSchema(mixed))).toEqual([]);
    expect(unportable(outputJsonSchema(mixed))).toEqual([]);
  });

  test('accepts exactly the values the schema zod writes accepts, as the SDK client validates them', () => {
    const validator = new AjvJsonSchemaValidator();
    const fields = (json: JsonSchema) => json.properties as Record<string, JsonSchema>;
    const before = fields(zodJson(mixed));
    const after = fields(portableSchema(zodJson(mixed)));
    const checks = Object.keys(before).map((key) => ({
      key,
      original: validator.getValidator(before[key]!),
      portable: validator.getValidator(after[key]!),
    }));
    const value = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -2, max: 12 }),
      fc.double({ min: -1, max: 6, noNaN: true }),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('calm', 'busy'),
      fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer())),
    );
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(...checks), value, (check, candidate) => {
        const valid = check.original(candidate).valid;
        outcomes.add(`${check.key} ${valid}`);
        expect(check.portable(candidate).valid).toBe(valid);
      }),
      { numRuns: 3000 },
    );
    // Every field both accepted and refused some values: the comparison was not one-sided.
    for (const { key } of checks) {
      if (key === 'anything') continue;
      expect([...outcomes].filter((o) => o.startsWith(`${key} `)).sort()).toEqual([
        `${key} false`,
        `${key} true`,
      ]);
    }
  });
});
