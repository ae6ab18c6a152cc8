/**
 * What an owning system answered a call, from best to worst: `ok`, `refused` (a domain refusal,
 * nothing applied), `unavailable` (never reached, or refused unprocessed), `invalid_answer` (the answer
 * broke its contract), `timeout` (no answer in time), `unknown` (it may or may not have applied).
 */
export const DEPENDENCY_RESULTS = [
  'ok',
  'refused',
  'unavailable',
  'invalid_answer',
  'timeout',
  'unknown',
] as const;
export type DependencyResult = (typeof DEPENDENCY_RESULTS)[number];

/**
 * Bounded facts a handler tells the gateway about its call, for the call's audit entry and span only
 * (never metric labels). A small fixed set of keys with short values; see docs/observability.md.
 */
export interface CallAnnotations {
  /** The approval the call's result needs, as a short token (`none`, `owner_group`, `cab`, ...). */
  readonly approval?: string;
  /** The id of the exception the call went ahead under (`ctx.exceptions.use` sets it). */
  readonly exception_id?: string;
  /** Who granted that exception (its `granted_by`). */
  readonly granted_by?: string;
  /** What the call's dependency answered; of several requests the worst is kept. */
  readonly dependency_result?: DependencyResult;
}

/** A bad annotation: a programmer error in the handler that sent it. */
export class CallAnnotationError extends Error {
  override readonly name = 'CallAnnotationError';
}

const TOKEN = /^[a-z][a-z0-9_]{0,31}$/;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is exactly "no control characters"
const SUBJECT = /^[^\u0000-\u001f\u007f]{1,256}$/;
const RANK: ReadonlyMap<string, number> = new Map(DEPENDENCY_RESULTS.map((r, i) => [r, i]));

const CHECKS: Readonly<Record<keyof CallAnnotations, (value: unknown) => boolean>> = {
  approval: (v) => typeof v === 'string' && TOKEN.test(v),
  exception_id: (v) => typeof v === 'string' && IDENTIFIER.test(v),
  granted_by: (v) => typeof v === 'string' && SUBJECT.test(v),
  dependency_result: (v) => typeof v === 'string' && RANK.has(v),
};
const RULES: Readonly<Record<keyof CallAnnotations, string>> = {
  approval: 'a lowercase token of at most 32 characters ([a-z][a-z0-9_]*)',
  exception_id: 'an identifier of at most 64 characters (letters, digits, . _ : -)',
  granted_by: 'a subject of at most 256 characters without control characters',
  dependency_result: `one of ${DEPENDENCY_RESULTS.join(', ')}`,
};

function isKey(key: string): key is keyof CallAnnotations {
  return Object.hasOwn(CHECKS, key);
}

/** The annotations of one call as they accumulate; a later value replaces an earlier one, except the dependency result, which keeps the worst. */
export class CallAnnotationSet {
  #values: { -readonly [K in keyof CallAnnotations]: CallAnnotations[K] } = {};

  /** Adds facts; throws a CallAnnotationError naming every bad key or value, and adds none of them then. */
  annotate(facts: CallAnnotations): void {
    const problems: string[] = [];
    for (const [key, value] of Object.entries(facts)) {
      if (value === undefined) continue;
      if (!isKey(key))
        problems.push(`${key} is not an annotation (known: ${Object.keys(CHECKS).join(', ')})`);
      else if (!CHECKS[key](value)) problems.push(`${key} must be ${RULES[key]}`);
    }
    if (problems.length > 0) throw new CallAnnotationError(`ctx.annotate: ${problems.join('; ')}`);
    const { dependency_result: result, ...rest } = facts;
    Object.assign(this.#values, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
    const held = this.#values.dependency_result;
    if (result !== undefined && (held === undefined || RANK.get(result)! > RANK.get(held)!)) {
      this.#values.dependency_result = result;
    }
  }

  /** The facts so far. */
  get values(): CallAnnotations {
    return { ...this.#values };
  }
}
