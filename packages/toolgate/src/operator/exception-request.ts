import { z } from 'zod';
import { EXCEPTION_KINDS, type ExceptionGrant } from '../operations/policy-exceptions.ts';
import type { Parsed, QueryProblem } from './operator-query.ts';

/** The longest span one exception may cover: a person grants an occasion, not a standing rule. */
export const MAX_EXCEPTION_HOURS = 72;

const rfc3339 = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 time with an offset' });

/** `POST /operator/v1/exceptions`: every field named, nothing else accepted. */
export const exceptionGrantSchema = z.strictObject({
  kind: z.enum(EXCEPTION_KINDS),
  service_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be a service id (letters, digits, . _ : -)'),
  environment: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be an environment name'),
  starts_at: rfc3339,
  ends_at: rfc3339,
  reason: z
    .string()
    .trim()
    .min(10, 'must say why, in at least 10 characters')
    .max(500, 'must be at most 500 characters'),
});

/**
 * The grant request, checked whole: its shape, then its span (ends after it starts, after `now`,
 * and at most MAX_EXCEPTION_HOURS long). Every problem is named; nothing is stored on any.
 */
export function parseExceptionGrant(body: unknown, now: number): Parsed<ExceptionGrant> {
  const parsed = exceptionGrantSchema.safeParse(body);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.flatMap(problemsOf) };
  const { starts_at, ends_at, ...rest } = parsed.data;
  const startsAt = Date.parse(starts_at);
  const endsAt = Date.parse(ends_at);
  const problems: QueryProblem[] = [];
  if (endsAt <= startsAt) problems.push({ parameter: 'ends_at', message: 'must be after starts_at' });
  else if (endsAt - startsAt > MAX_EXCEPTION_HOURS * 3_600_000) {
    problems.push({
      parameter: 'ends_at',
      message: `must be at most ${MAX_EXCEPTION_HOURS} hours after starts_at`,
    });
  }
  if (endsAt <= now) problems.push({ parameter: 'ends_at', message: 'must be in the future' });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { ...rest, starts_at: startsAt, ends_at: endsAt } };
}

function problemsOf(issue: z.core.$ZodIssue): QueryProblem[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ parameter: key, message: 'is not a field of an exception' }));
  }
  const parameter = issue.path.map(String).join('.') || 'body';
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return [{ parameter, message: 'is required' }];
  }
  return [{ parameter, message: issue.message }];
}
