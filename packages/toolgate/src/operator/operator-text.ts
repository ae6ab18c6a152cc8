import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is exactly "no control characters"
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is exactly "no control characters"
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * What an operator may not send in text: control characters (a note or a reason may hold tabs and line
 * breaks). The store would keep them verbatim, or refuse a NUL as PostgreSQL does; the API answers 400
 * naming the field first, on every store alike.
 */
export function controlCharacterProblem(text: string, multiline = false): string | null {
  const found = (multiline ? CONTROL_MULTILINE : CONTROL_ONE_LINE).exec(text);
  if (!found) return null;
  const hex = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `must not contain control characters (${hex} at position ${found.index + 1})`;
}

/** A trimmed, bounded operator text (a note, a reference, a choice) without control characters. */
export function operatorText(min: number, max: number, options: { multiline?: boolean } = {}) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .superRefine((text, ctx) => {
      const problem = controlCharacterProblem(text, options.multiline);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}
