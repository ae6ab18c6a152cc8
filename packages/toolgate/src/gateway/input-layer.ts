import { z } from 'zod';
import { compiledSchema } from '../contract/compiled-schema.ts';
import type { FieldError, OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import { fieldErrorsOf } from './field-errors.ts';

export const META_IDEMPOTENCY_KEY = 'io.toolgate/idempotency-key';

export type InputVerdict =
  | { ok: true; args: Record<string, unknown>; key: string | null }
  | { ok: false; refusal: OutcomeEnvelope };

/**
 * The input layer. Validates arguments against the closed input schema. Every problem gets its own
 * field error saying what is wrong (up to MAX_FIELD_ERRORS, the rest counted); an unknown field is
 * named together with the fields that are allowed at that place.
 * A key sent in `_meta` fills a missing `idempotency_key`; both present and different is refused.
 * A refusal is `failed` / `INVALID_ARGUMENT` with the field errors; nothing is executed.
 */
export function validateInput(
  tool: RegisteredTool,
  rawArgs: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
): InputVerdict {
  let args = rawArgs;
  const metaKey = meta?.[META_IDEMPOTENCY_KEY];
  if (metaKey !== undefined && tool.definition.kind !== 'read') {
    if (args.idempotency_key === undefined) {
      args = { ...args, idempotency_key: metaKey };
    } else if (args.idempotency_key !== metaKey) {
      return invalidArguments(tool, [
        {
          field: 'idempotency_key',
          code: 'KEY_MISMATCH',
          message: `idempotency_key differs from _meta["${META_IDEMPOTENCY_KEY}"]; send one key, or the same in both`,
        },
      ]);
    }
  }
  // reportInput: a present value of the wrong type is then told apart from a missing one.
  const parsed = compiledSchema(tool.definition.input).safeParse(args, { reportInput: true });
  if (!parsed.success) {
    const schema = tool.definition.input;
    return invalidArguments(
      tool,
      fieldErrorsOf(parsed.error.issues, (path) => allowedKeysAt(schema, path)),
    );
  }
  const value = parsed.data as Record<string, unknown>;
  const key = typeof value.idempotency_key === 'string' ? value.idempotency_key : null;
  return { ok: true, args: value, key };
}

function invalidArguments(tool: RegisteredTool, fieldErrors: FieldError[]): InputVerdict {
  return {
    ok: false,
    refusal: buildEnvelope(tool, {
      status: 'failed',
      code: 'INVALID_ARGUMENT',
      message: `The arguments do not match the input schema of ${tool.definition.name}; field_errors says what is wrong with each field.`,
      resolution: 'Fix the fields listed in field_errors and call again; nothing was executed.',
      field_errors: fieldErrors,
    }),
  };
}

function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = unwrap(schema);
  for (const step of path) {
    if (node instanceof z.ZodObject) node = unwrap(node.shape[String(step)] as z.ZodType | undefined);
    else if (node instanceof z.ZodArray) node = unwrap(node.element as z.ZodType);
    else return [];
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape).sort() : [];
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let node = schema;
  while (
    node instanceof z.ZodOptional ||
    node instanceof z.ZodNullable ||
    node instanceof z.ZodDefault ||
    node instanceof z.ZodReadonly
  ) {
    node = node.unwrap() as z.ZodType;
  }
  return node;
}
