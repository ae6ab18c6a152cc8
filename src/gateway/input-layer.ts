import { z } from 'zod';
import type { FieldError } from '../contract/envelope.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

export const META_IDEMPOTENCY_KEY = 'io.toolgate/idempotency-key';

export type InputVerdict =
  | { ok: true; args: Record<string, unknown>; key: string | null }
  | { ok: false; fieldErrors: FieldError[] };

/**
 * Layer 3. Validates arguments against the closed input schema. Every problem gets its own field
 * error; an unknown field is named together with the fields that are allowed at that place.
 * A key sent in `_meta` fills a missing `idempotency_key`; both present and different is refused.
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
      return {
        ok: false,
        fieldErrors: [
          {
            field: 'idempotency_key',
            code: 'KEY_MISMATCH',
            message: `idempotency_key differs from _meta["${META_IDEMPOTENCY_KEY}"]; send one key, or the same in both`,
          },
        ],
      };
    }
  }
  const parsed = tool.definition.input.safeParse(args);
  if (!parsed.success) return { ok: false, fieldErrors: toFieldErrors(tool.definition.input, parsed.error) };
  const value = parsed.data as Record<string, unknown>;
  const key = typeof value.idempotency_key === 'string' ? value.idempotency_key : null;
  return { ok: true, args: value, key };
}

function toFieldErrors(schema: z.ZodType, error: z.ZodError): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(schema, issue.path);
      for (const key of issue.keys) {
        errors.push({
          field: base ? `${base}.${key}` : key,
          code: 'UNKNOWN_FIELD',
          message: `Unknown field "${key}" is not accepted; allowed fields: ${allowed.join(', ')}`,
        });
      }
      continue;
    }
    errors.push({ field: base || '(arguments)', code: issueCode(issue), message: issueMessage(issue) });
  }
  return errors;
}

function issueCode(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'REQUIRED' : 'INVALID_TYPE';
    case 'too_small':
      return 'TOO_SMALL';
    case 'too_big':
      return 'TOO_BIG';
    case 'invalid_format':
      return 'INVALID_FORMAT';
    case 'invalid_value':
      return 'NOT_ALLOWED';
    case 'not_multiple_of':
      return 'NOT_MULTIPLE_OF';
    case 'custom':
      return typeof issue.params?.code === 'string' ? issue.params.code : 'INVALID';
    default:
      return 'INVALID';
  }
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `Required field is missing`;
  if (issue.code === 'invalid_value')
    return `Must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_format' && issue.format === 'regex')
    return `Does not match the pattern ${issue.pattern}`;
  return issue.message;
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
