import type { z } from 'zod';

/** How a refusal status of the service becomes a domain outcome of the tool. */
export interface RejectionMapping {
  /** A code the tool declares in its `errors`. */
  readonly code: string;
  /** One sentence for the agent; a function derives it from the service's (untrusted) body. */
  readonly message: string | ((body: unknown) => string);
  readonly resolution?: string;
  /**
   * Default `rejected`; `requires_confirmation` when the user can accept a suggestion and call again.
   * The code's category decides between `rejected` and `failed` (a `validation` code is answered
   * `failed`); a status the code cannot have is refused at the answer as OUTPUT_CONTRACT_VIOLATION.
   */
  readonly status?: 'rejected' | 'requires_confirmation';
}

/** Rejection mappings by 4xx status, or a function that answers null for a status it does not map. */
export type RejectionRules =
  | Readonly<Record<number, RejectionMapping>>
  | ((status: number, body: unknown) => RejectionMapping | null);

/** What a backend call established. Every failure is classified by what it proves about the service's state. */
export type BackendResult<T> =
  | { kind: 'ok'; status: number; body: T }
  /** The service refused (a mapped 4xx); nothing was applied. */
  | {
      kind: 'rejected';
      status: number;
      code: string;
      message: string;
      resolution: string | null;
      outcomeStatus: 'rejected' | 'requires_confirmation';
      body: unknown;
    }
  /** Nothing was applied: the service was never reached, or refused unprocessed (429), or the call is effect-free. */
  | { kind: 'unavailable'; reason: string }
  /** The request may have been applied. */
  | { kind: 'unknown'; reason: string }
  /** A 2xx whose body breaks the response schema; never a silent success. */
  | { kind: 'contract_violation'; status: number; problems: string[]; mayHaveApplied: boolean }
  /** A status the request does not map (an unmapped 4xx, a redirect): refused, nothing applied, a mapping bug. */
  | { kind: 'unexpected_status'; status: number };

/** Why an attempt gave no usable answer, and what that proves. */
export interface AttemptFailure {
  readonly reason: string;
  /** none: never reached the service; refused: reached, declined unprocessed; maybe: may have been applied. */
  readonly reach: 'none' | 'refused' | 'maybe';
  /** The wait the service asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | null;
}

/** An attempt's meaning: the call's result, or a failure the caller may retry. */
export type AttemptVerdict<T> =
  | { kind: 'final'; result: BackendResult<T> }
  | { kind: 'failure'; failure: AttemptFailure };

/** undici's codes for a connection that was never established: not one byte of the request was sent. */
const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const MAX_PROBLEMS = 20;

/** The answer's head arrived but its body broke off: the request was processed, or may have been. */
export const UNREADABLE_ANSWER: AttemptFailure = Object.freeze({
  reason: 'the answer could not be read',
  reach: 'maybe',
  retryAfterMs: null,
});

/**
 * A Retry-After header (delta-seconds or an HTTP date) as milliseconds from `now`; null when absent or
 * unreadable, so the ordinary back-off applies instead.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Classifies a rejected `fetch` (not an abort: the caller checks its own signals first). Only a connect
 * failure proves nothing was sent; anything else, known or not, may have reached the service.
 */
export function failureOfFetchError(error: unknown): AttemptFailure {
  const cause = error instanceof Error ? error.cause : undefined;
  // Happy-eyeballs connects report one error per address tried, inside an AggregateError.
  const codes =
    cause instanceof AggregateError ? cause.errors.map(errorCode) : [errorCode(cause) ?? errorCode(error)];
  const first = codes[0] ?? 'unknown error';
  if (codes.length > 0 && codes.every((code) => code !== undefined && CONNECT_FAILURE_CODES.has(code))) {
    return { reason: `could not connect (${first})`, reach: 'none', retryAfterMs: null };
  }
  return {
    reason: `the request failed and may have reached the service (${first})`,
    reach: 'maybe',
    retryAfterMs: null,
  };
}

function parseBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Zod issues as `field.path: what is wrong`, at most MAX_PROBLEMS of them. */
function schemaProblems(error: z.ZodError): string[] {
  return error.issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const field = issue.path.map(String).join('.') || '(body)';
    return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
}

function mappingFor(
  rules: RejectionRules | undefined,
  status: number,
  body: unknown,
): RejectionMapping | null {
  if (rules === undefined) return null;
  return typeof rules === 'function' ? rules(status, body) : (rules[status] ?? null);
}

/** The parts of an answered attempt that classification reads. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly text: string;
}

/**
 * Classifies an answered attempt. `effectful` is false only for a repeatable GET/HEAD, whose 2xx body
 * breaking the schema proves nothing was applied.
 */
export function classifyAnswer<S extends z.ZodType>(
  answer: Answer,
  request: { readonly response: S; readonly rejections?: RejectionRules },
  effectful: boolean,
  now: number,
): AttemptVerdict<z.output<S>> {
  const { status } = answer;
  const body = parseBody(answer.text);
  if (status >= 200 && status < 300) {
    const parsed = body.ok ? request.response.safeParse(body.value) : null;
    if (parsed?.success) return { kind: 'final', result: { kind: 'ok', status, body: parsed.data } };
    const problems = parsed ? schemaProblems(parsed.error) : ['(body): not valid JSON'];
    return {
      kind: 'final',
      result: { kind: 'contract_violation', status, problems, mayHaveApplied: effectful },
    };
  }
  const retryAfterMs = parseRetryAfter(answer.retryAfter, now);
  // RFC 6585: 429 means the request was declined before processing.
  if (status === 429)
    return { kind: 'failure', failure: { reason: 'rate limited (429)', reach: 'refused', retryAfterMs } };
  if (status >= 400 && status < 500) {
    const value = body.ok ? body.value : answer.text;
    const mapping = mappingFor(request.rejections, status, value);
    if (mapping === null) return { kind: 'final', result: { kind: 'unexpected_status', status } };
    const message = typeof mapping.message === 'function' ? mapping.message(value) : mapping.message;
    const result: BackendResult<never> = {
      kind: 'rejected',
      status,
      code: mapping.code,
      message,
      resolution: mapping.resolution ?? null,
      outcomeStatus: mapping.status ?? 'rejected',
      body: value,
    };
    return { kind: 'final', result };
  }
  if (status >= 300 && status < 400) return { kind: 'final', result: { kind: 'unexpected_status', status } };
  const wait = status === 503 ? retryAfterMs : null;
  return {
    kind: 'failure',
    failure: { reason: `the service answered ${status}`, reach: 'maybe', retryAfterMs: wait },
  };
}
