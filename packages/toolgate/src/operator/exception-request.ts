import { z } from 'zod';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { ExceptionTarget } from '../contract/handler-exceptions.ts';
import type { ExceptionCatalog } from '../exceptions/exception-catalog.ts';
import type { ExceptionGrant } from '../operations/policy-exceptions.ts';
import type { Parsed, QueryProblem } from './operator-query.ts';
import { controlCharacterProblem } from './operator-text.ts';

const rfc3339 = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 time with an offset' });

/** The fields of a grant besides its kind and target. */
const grantFieldsSchema = z.strictObject({
  starts_at: rfc3339,
  ends_at: rfc3339,
  reason: z
    .string()
    .trim()
    .min(10, 'must say why, in at least 10 characters')
    .max(500, 'must be at most 500 characters')
    .superRefine((reason, ctx) => {
      const problem = controlCharacterProblem(reason, true);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
const GRANT_FIELDS = ['kind', 'target', 'starts_at', 'ends_at', 'reason'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The declared kind a grant request names (`POST /operator/v1/exceptions`), read before anything else
 * so that the kind's own scope is checked before its target is: an unknown kind names the known ones.
 */
export function exceptionKindOf(body: unknown, catalog: ExceptionCatalog): Parsed<ExceptionDefinition> {
  if (!isObject(body))
    return { ok: false, problems: [{ parameter: 'body', message: 'must be a JSON object' }] };
  const definition = typeof body.kind === 'string' ? catalog.get(body.kind) : undefined;
  if (definition) return { ok: true, value: definition };
  const known = catalog.kinds();
  const message =
    known.length === 0
      ? 'names no exception kind: this gateway declares none'
      : `must be one of ${known.join(', ')}`;
  return {
    ok: false,
    problems: [{ parameter: 'kind', message: body.kind === undefined ? 'is required' : message }],
  };
}

/**
 * The grant request of a known kind, checked whole: its target against the kind's schema (given as
 * `target`, or as the target's fields beside `kind`), then its span (ends after it starts, after `now`,
 * and at most the kind's maxDurationSeconds long) and its reason. Every problem is named; nothing is
 * stored on any.
 */
export function parseExceptionGrant(
  body: Record<string, unknown>,
  definition: ExceptionDefinition,
  now: number,
): Parsed<ExceptionGrant> {
  const problems: QueryProblem[] = [];
  const flat = Object.fromEntries(Object.entries(body).filter(([key]) => !GRANT_FIELDS.includes(key)));
  const nested = 'target' in body;
  if (nested && !isObject(body.target))
    problems.push({ parameter: 'target', message: 'must be a JSON object' });
  for (const key of nested ? Object.keys(flat) : []) {
    problems.push({ parameter: key, message: 'is not a field of an exception (the target goes in target)' });
  }
  const target = definition.target.safeParse(nested ? body.target : flat);
  if (!target.success && (!nested || isObject(body.target))) {
    const prefix = nested ? 'target.' : '';
    const fields = Object.keys(definition.target.shape).join(', ');
    problems.push(
      ...target.error.issues.flatMap((issue) => issueProblems(issue, prefix, definition.kind, fields)),
    );
  }
  // A module's target schema may take any string; what is stored and matched is one line of text.
  if (target.success) {
    const prefix = nested ? 'target.' : '';
    for (const [field, value] of Object.entries(target.data as Record<string, unknown>)) {
      const problem = typeof value === 'string' ? controlCharacterProblem(value) : null;
      if (problem) problems.push({ parameter: `${prefix}${field}`, message: problem });
    }
  }
  const fields = grantFieldsSchema.safeParse({
    starts_at: body.starts_at,
    ends_at: body.ends_at,
    reason: body.reason,
  });
  if (!fields.success)
    problems.push(...fields.error.issues.flatMap((issue) => issueProblems(issue, '', '', '')));
  if (fields.success) problems.push(...spanProblems(fields.data, definition, now));
  if (problems.length > 0 || !target.success || !fields.success) return { ok: false, problems };
  return {
    ok: true,
    value: {
      kind: definition.kind,
      target: target.data as ExceptionTarget,
      starts_at: Date.parse(fields.data.starts_at),
      ends_at: Date.parse(fields.data.ends_at),
      reason: fields.data.reason,
    },
  };
}

function spanProblems(
  fields: { readonly starts_at: string; readonly ends_at: string },
  definition: ExceptionDefinition,
  now: number,
): QueryProblem[] {
  const startsAt = Date.parse(fields.starts_at);
  const endsAt = Date.parse(fields.ends_at);
  const problems: QueryProblem[] = [];
  const longest = definition.maxDurationSeconds;
  if (endsAt <= startsAt) problems.push({ parameter: 'ends_at', message: 'must be after starts_at' });
  else if (endsAt - startsAt > longest * 1000) {
    const span = longest % 3600 === 0 ? `${longest / 3600} hours` : `${longest} seconds`;
    problems.push({ parameter: 'ends_at', message: `must be at most ${span} after starts_at` });
  }
  if (endsAt <= now) problems.push({ parameter: 'ends_at', message: 'must be in the future' });
  return problems;
}

function issueProblems(
  issue: z.core.$ZodIssue,
  prefix: string,
  kind: string,
  fields: string,
): QueryProblem[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      parameter: `${prefix}${key}`,
      message: kind
        ? `is not a field of a ${kind} target (fields: ${fields})`
        : 'is not a field of an exception',
    }));
  }
  const parameter = `${prefix}${issue.path.map(String).join('.')}` || 'body';
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return [{ parameter, message: 'is required' }];
  return [{ parameter, message: issue.message }];
}
