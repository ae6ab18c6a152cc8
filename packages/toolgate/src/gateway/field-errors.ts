import type { z } from 'zod';
import type { FieldError } from '../contract/envelope.ts';

/** Field errors one answer lists at most; the rest are counted, so a flood of bad keys stays a short answer. */
export const MAX_FIELD_ERRORS = 20;

/**
 * Turns zod issues into field errors that say what is wrong with the value that was sent: missing,
 * of the wrong type (expected against got), too long, not one of the allowed values, ... Parse with
 * `reportInput: true`, or a present-but-wrong value cannot be told from a missing one.
 */
export function fieldErrorsOf(
  issues: readonly z.core.$ZodIssue[],
  allowedKeysAt: (path: readonly PropertyKey[]) => string[],
): FieldError[] {
  const errors: FieldError[] = [];
  let total = 0;
  const add = (error: FieldError) => {
    total += 1;
    if (errors.length < MAX_FIELD_ERRORS) errors.push(error);
  };
  // A value of the wrong type also fails the checks made for the right one (zod goes on after a type
  // error): only the type error is worth saying.
  const mistyped = new Set<string>();
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (mistyped.has(base)) continue;
    if (issue.code === 'invalid_type' && !isMissing(issue)) mistyped.add(base);
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(issue.path).join(', ');
      for (const key of issue.keys) {
        if (errors.length >= MAX_FIELD_ERRORS) {
          total += 1;
          continue;
        }
        add({
          field: base ? `${base}.${key}` : key,
          code: 'UNKNOWN_FIELD',
          message: `Unknown field "${key.slice(0, 60)}" is not accepted; allowed fields: ${allowed}`,
        });
      }
      continue;
    }
    add({ field: base || '(arguments)', code: codeOf(issue), message: messageOf(issue) });
  }
  if (total > errors.length) {
    errors.push({
      field: '(arguments)',
      code: 'MORE_PROBLEMS',
      message: `${total - errors.length} more problem(s) not listed; fix the ones above and call again.`,
    });
  }
  return errors;
}

// JSON carries no undefined: with reportInput an absent field is the only way to get one. An absent
// enum or literal field reaches zod as a value outside the allowed ones; it is missing all the same.
const isMissing = (issue: z.core.$ZodIssue) =>
  (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
  (issue as { input?: unknown }).input === undefined;

function codeOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return isMissing(issue) ? 'REQUIRED' : 'INVALID_TYPE';
    case 'too_small':
      return 'TOO_SMALL';
    case 'too_big':
      return 'TOO_BIG';
    case 'invalid_format':
      return 'INVALID_FORMAT';
    case 'invalid_value':
      return isMissing(issue) ? 'REQUIRED' : 'NOT_ALLOWED';
    case 'not_multiple_of':
      return 'NOT_MULTIPLE_OF';
    case 'invalid_union':
      return 'NO_MATCHING_FORM';
    case 'invalid_key':
      return 'INVALID_KEY';
    case 'invalid_element':
      return 'INVALID_ELEMENT';
    case 'custom':
      return typeof issue.params?.code === 'string' ? issue.params.code : 'INVALID';
    default:
      return 'INVALID';
  }
}

/** What was sent, without echoing more of it than a short scalar. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length <= 24 ? `the string ${JSON.stringify(value)}` : 'a string';
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const EXPECTED: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function boundMessage(issue: z.core.$ZodIssue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const limit = small
    ? (issue as { minimum: number | bigint }).minimum
    : (issue as { maximum: number | bigint }).maximum;
  const inclusive = issue.inclusive !== false;
  const input = (issue as { input?: unknown }).input;
  switch (issue.origin) {
    case 'string': {
      const got = typeof input === 'string' ? ` (got ${input.length})` : '';
      return `${small ? 'Too short: at least' : 'Too long: at most'} ${limit} character(s)${got}`;
    }
    case 'array':
    case 'set': {
      const got = Array.isArray(input) ? ` (got ${input.length})` : '';
      return `${small ? 'Too few: at least' : 'Too many: at most'} ${limit} item(s)${got}`;
    }
    default: {
      const relation = small
        ? inclusive
          ? 'at least'
          : 'greater than'
        : inclusive
          ? 'at most'
          : 'less than';
      return `Must be ${relation} ${limit}; got ${describeValue(input)}`;
    }
  }
}

function messageOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (isMissing(issue)) return 'Required field is missing.';
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      const got = describeValue(issue.input);
      const hint =
        typeof issue.input === 'string' && issue.expected !== 'string' ? ' (send it without quotes)' : '';
      return `Expected ${expected}, got ${got}${hint}.`;
    }
    case 'too_small':
    case 'too_big':
      return `${boundMessage(issue)}.`;
    case 'invalid_value': {
      const shown = issue.values.slice(0, 20).map((v) => JSON.stringify(v));
      const more = issue.values.length > 20 ? `, ... (${issue.values.length} in all)` : '';
      if (isMissing(issue)) return `Required field is missing; one of: ${shown.join(', ')}${more}.`;
      return `Must be one of: ${shown.join(', ')}${more}; got ${describeValue(issue.input)}.`;
    }
    case 'invalid_format':
      return issue.format === 'regex'
        ? `Does not match the pattern ${issue.pattern}.`
        : `Not a valid ${issue.format === 'url' ? 'URL' : issue.format}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}; got ${describeValue(issue.input)}.`;
    case 'invalid_union': {
      const forms = issue.errors.map((branch) => branch[0]?.message).filter(Boolean);
      return `Matches none of the allowed forms${forms.length > 0 ? `: ${forms.slice(0, 4).join(' | ')}` : ''}.`;
    }
    case 'invalid_key':
      return `The key is not allowed here: ${issue.issues[0]?.message ?? issue.message}.`;
    case 'invalid_element':
      return `An element is not allowed here: ${issue.issues[0]?.message ?? issue.message}.`;
    default:
      return issue.message;
  }
}
