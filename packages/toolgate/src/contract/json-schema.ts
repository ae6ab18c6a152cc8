import { z } from 'zod';
import { envelopeSchemaFor } from './envelope.ts';
import { portableSchema } from './portable-schema.ts';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema 2020-12 of what an agent may send (defaults make fields optional), in its portable form
 * (portable-schema.ts). zod validates calls; this is what tools/list publishes.
 */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' });
  delete json.$schema;
  return portableSchema(json as JsonSchema);
}

/** JSON Schema 2020-12 of the full envelope whose `result` is the tool's own output schema, portable. */
export function outputJsonSchema(result: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(envelopeSchemaFor(result), {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
  });
  delete json.$schema;
  return portableSchema(json as JsonSchema);
}

/** JSON pointers of every object schema that accepts unknown members. */
export function openObjectPointers(schema: unknown, pointer = ''): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((item, i) => openObjectPointers(item, `${pointer}/${i}`));
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  if (isObject && node.additionalProperties !== false) found.push(pointer || '/');
  for (const [key, child] of Object.entries(node)) {
    if (key === 'default' || key === 'examples' || key === 'const' || key === 'enum') continue;
    found.push(...openObjectPointers(child, `${pointer}/${key}`));
  }
  return found;
}
