import type { IncomingMessage } from 'node:http';
import type { FieldError } from 'toolgate';
import { readBody } from 'toolgate/server';
import { z } from 'zod';
import { faultSpecSchema } from '../faults.ts';

const TEST_API_BODY_LIMIT = 64 * 1024;

const clearFaultsSchema = z.strictObject({
  clear: z.literal(true),
  target: z.string().min(1).max(40).optional(),
});

/** POST /test-api/faults: arm one fault, or clear them. */
export const faultsBodySchema = z.union([clearFaultsSchema, faultSpecSchema]);

export const simulateBodySchema = z.strictObject({
  target: z.string().min(1).max(40),
  action: z.string().min(1).max(60),
  params: z.record(z.string(), z.unknown()).default({}),
});

export const effectsQuerySchema = z.strictObject({
  target: z.string().min(1).max(40).optional(),
  ref: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(60).optional(),
});

export type BodyVerdict<T> = { ok: true; value: T } | { ok: false; status: number; errors: FieldError[] };

/** Reads and validates a JSON body; every problem becomes one field error. */
export async function parseJsonBody<S extends z.ZodType>(
  req: IncomingMessage,
  schema: S,
): Promise<BodyVerdict<z.output<S>>> {
  const body = await readBody(req, TEST_API_BODY_LIMIT);
  if (!body.ok) {
    return { ok: false, status: 413, errors: [{ field: '', code: 'TOO_LARGE', message: 'body too large' }] };
  }
  let value: unknown;
  try {
    value = body.text.trim() === '' ? {} : JSON.parse(body.text);
  } catch {
    return {
      ok: false,
      status: 400,
      errors: [{ field: '', code: 'INVALID_JSON', message: 'body is not JSON' }],
    };
  }
  return validate(schema, value);
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): BodyVerdict<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, status: 400, errors: fieldErrorsOf(parsed.error) };
}

export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'invalid_union') {
      // Report the branch that got furthest, so a fault spec's own problems are named.
      const branches = issue.errors.map((issues) => fieldErrorsOf(new z.ZodError(issues)));
      const closest = branches.reduce((a, b) => (b.length < a.length ? b : a), branches[0] ?? []);
      if (closest.length > 0) return closest;
    }
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: base ? `${base}.${key}` : key,
        code: 'UNKNOWN_FIELD',
        message: `unknown field "${key}"`,
      }));
    }
    return [{ field: base, code: issue.code.toUpperCase(), message: issue.message }];
  });
}
