import { z } from 'zod';

/** DESIGN.md section 4: the key every write/request tool requires. */
export const idempotencyKeySchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/)
  .describe(
    'Unique key for this logical operation, 16-128 characters of A-Z a-z 0-9 . _ : -. ' +
      'Reuse it only when retrying the same request (for example after a timeout or an outcome_unknown); ' +
      'a new request needs a new key.',
  );

/** Bounded page size for search tools. */
export function pageSizeSchema(max: number, fallback: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`How many items to return, 1-${max} (default ${fallback}).`);
}

export const cursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('Opaque cursor from next_cursor of the previous page; omit for the first page.');

/**
 * Characters no free text may hold: C0 controls (NUL, ESC, ...), DEL, C1 controls, the Arabic letter
 * mark, left-to-right/right-to-left marks, line and paragraph separators and the bidirectional
 * embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). Multi-line text keeps tab, line
 * feed and carriage return.
 */
const FORBIDDEN_ONE_LINE =
  '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069';
const FORBIDDEN_MULTILINE =
  '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069';
/** Allowed but invisible: spaces of every width and zero-width characters (joiners, word joiner, BOM). */
const INVISIBLE_ONE_LINE = ' \\u00A0\\u1680\\u2000-\\u200D\\u202F\\u205F\\u2060\\u3000\\uFEFF';
const INVISIBLE_MULTILINE = `\\t\\n\\r${INVISIBLE_ONE_LINE}`;

/**
 * Leading invisible characters, one visible character, then anything allowed. The first two classes
 * are disjoint, so matching stays linear in the length of the text (no backtracking blow-up).
 */
function visibleTextPattern(multiline: boolean, allowEmpty: boolean): string {
  const forbidden = multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_ONE_LINE;
  const invisible = multiline ? INVISIBLE_MULTILINE : INVISIBLE_ONE_LINE;
  const body = `[${invisible}]*[^${forbidden}${invisible}][^${forbidden}]*`;
  return allowEmpty ? `^(?:${body})?$` : `^${body}$`;
}

const BIDI = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
const NAMED: Readonly<Record<number, string>> = {
  0: 'a NUL character',
  9: 'a tab',
  10: 'a line break',
  13: 'a carriage return',
  27: 'an ESC character',
  127: 'a DEL character',
  8232: 'a line separator',
  8233: 'a paragraph separator',
};

/** What is wrong with a text the pattern refuses, in one sentence an agent can act on. */
function textProblem(text: string, multiline: boolean, pattern: RegExp): string | null {
  if (text.length === 0 || pattern.test(text)) return null;
  const forbidden = new RegExp(`[${multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_ONE_LINE}]`);
  const found = forbidden.exec(text);
  if (!found) {
    return 'Contains only invisible characters (spaces or zero-width characters); write visible text.';
  }
  const code = found[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = NAMED[code] ?? (BIDI.has(code) ? 'a bidirectional control character' : 'a control character');
  const rule = multiline
    ? 'text may not hold control characters other than tab and line breaks, nor bidirectional controls'
    : 'this field is one line of text without control or bidirectional characters';
  return `Contains ${what} (${hex}) at position ${found.index + 1}; ${rule}. Remove it and send the visible text.`;
}

export interface TextSchemaOptions {
  /** Fewest characters after trimming; 0 allows the empty string. */
  readonly min: number;
  readonly max: number;
  /** Tab and line breaks allowed (plans, descriptions); single-line otherwise. */
  readonly multiline?: boolean;
}

/**
 * Free text an agent may send (names, address lines, titles, plans): trimmed, bounded, and made of
 * visible characters. Control characters, bidirectional controls and text of invisible characters
 * only are refused before anything runs, with one field error (code INVALID_TEXT) saying which
 * character at which position. The JSON Schema carries the same rule as a `pattern`, so an agent can
 * read it; the lint rule `free-text-pattern` flags free-text inputs without one.
 */
export function textSchema(options: TextSchemaOptions) {
  const multiline = options.multiline ?? false;
  const source = visibleTextPattern(multiline, options.min === 0);
  const pattern = new RegExp(source);
  const bounded = z.string().trim().max(options.max);
  return (options.min > 0 ? bounded.min(options.min) : bounded)
    .superRefine((text, ctx) => {
      const problem = textProblem(text, multiline, pattern);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'INVALID_TEXT' } });
    })
    .meta({ pattern: source });
}
