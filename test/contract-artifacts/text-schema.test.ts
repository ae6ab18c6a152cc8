import fc from 'fast-check';
import { textSchema } from 'toolgate';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const FORBIDDEN_ONE_LINE = [
  '\u0000',
  '\u0007',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];
const INVISIBLE = [' ', '\u00a0', '\u2003', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u3000'];
const VISIBLE = ['a', 'Z', '7', 'ß', 'é', 'Ж', '中', '👋', '-', '.', "'"];

/** Strings mixing ordinary text with the characters the rule is about. */
const textLike = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...VISIBLE) },
      { weight: 2, arbitrary: fc.constantFrom(...INVISIBLE) },
      { weight: 1, arbitrary: fc.constantFrom(...FORBIDDEN_ONE_LINE) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const jsonPattern = (schema: z.ZodType) =>
  new RegExp((z.toJSONSchema(schema, { io: 'input' }) as { pattern: string }).pattern, 'u');

describe('textSchema', () => {
  const oneLine = textSchema({ min: 1, max: 200 });
  const multiline = textSchema({ min: 0, max: 200, multiline: true });

  test('what it accepts is exactly what its published pattern admits (after trimming)', () => {
    for (const [schema, pattern] of [
      [oneLine, jsonPattern(oneLine)],
      [multiline, jsonPattern(multiline)],
    ] as const) {
      fc.assert(
        fc.property(textLike, (text) => {
          const trimmed = text.trim();
          expect(schema.safeParse(text).success).toBe(
            pattern.test(trimmed) && trimmed.length <= 200 && (schema !== oneLine || trimmed.length >= 1),
          );
        }),
        { numRuns: 2000 },
      );
    }
  });

  test('accepted text holds a visible character and nothing forbidden', () => {
    fc.assert(
      fc.property(textLike, (text) => {
        const parsed = oneLine.safeParse(text);
        if (!parsed.success) return;
        expect(FORBIDDEN_ONE_LINE.some((c) => parsed.data.includes(c))).toBe(false);
        expect([...parsed.data].some((c) => !INVISIBLE.includes(c) && c.trim() !== '')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  // Inside the text: at either end, trimming removes the line and paragraph separators before any check.
  test('a forbidden character inside valid text is refused with one INVALID_TEXT issue naming it', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...VISIBLE), minLength: 2, maxLength: 40 }),
        fc.constantFrom(...FORBIDDEN_ONE_LINE),
        fc.nat(),
        (text, bad, at) => {
          const i = 1 + (at % (text.length - 1));
          const issues = oneLine.safeParse(`${text.slice(0, i)}${bad}${text.slice(i)}`).error?.issues ?? [];
          expect(issues).toHaveLength(1);
          expect(issues[0]).toMatchObject({ code: 'custom', params: { code: 'INVALID_TEXT' } });
          const hex = bad.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
          expect(issues[0]!.message).toContain(`U+${hex}`);
        },
      ),
    );
  });

  test('multi-line text keeps line breaks and tabs; one-line text refuses them', () => {
    expect(multiline.safeParse('1. Deploy.\n2. Verify.\tDone').success).toBe(true);
    expect(oneLine.safeParse('1. Deploy.\n2. Verify.').error?.issues[0]?.message).toContain('a line break');
    expect(multiline.safeParse('').success).toBe(true);
    expect(multiline.safeParse('\u200b').error?.issues[0]?.message).toContain('only invisible characters');
  });

  test('empty text is only too short, not also invisible', () => {
    expect(oneLine.safeParse('   ').error?.issues.map((i) => i.code)).toEqual(['too_small']);
  });
});
