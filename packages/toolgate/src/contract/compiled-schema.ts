import { z } from 'zod';

/** zod's ahead-of-time compiler, present from zod 4.6; older releases of the peer dependency lack it. */
const compile = (z as { compile?: <T extends z.ZodType>(schema: T) => T }).compile;

const compiled = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema as a compiled parser: zod generates a function specialised to the schema that parses a
 * valid value without the generic per-node dispatch, and hands any value it would refuse (or any part
 * of the schema it cannot model) to zod's own parser, so what is accepted, the parsed value and every
 * issue are zod's. Compiled on first use (a call per tool, not a cost at start-up) and kept per schema.
 * With a zod that has no compiler, the schema itself.
 */
export function compiledSchema<T extends z.ZodType>(schema: T): T {
  let parser = compiled.get(schema);
  if (parser === undefined) {
    parser = compile ? compile(schema) : schema;
    compiled.set(schema, parser);
  }
  return parser as T;
}
