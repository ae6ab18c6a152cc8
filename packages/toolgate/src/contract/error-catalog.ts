/**
 * Stable error codes. A code, once published, keeps its meaning, category and retryability;
 * the registry refuses two tools that declare the same code differently.
 */
export const ERROR_CATEGORIES = [
  'validation',
  'authentication',
  'authorization',
  'not_found',
  'state',
  'policy',
  'conflict',
  'confirmation',
  'dependency',
  'rate_limit',
  'timeout',
  'uncertain',
  'internal',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** Statuses an answer carrying a code can have (success carries none). */
export type CodeStatus = 'failed' | 'rejected' | 'requires_confirmation' | 'outcome_unknown' | 'in_progress';

export interface ErrorCodeSpec {
  readonly code: string;
  readonly category: ErrorCategory;
  /** True only if the identical request (same key) may succeed later. */
  readonly retryable: boolean;
  /** When an agent sees this code, and what it should do next. */
  readonly description: string;
  /**
   * The one status this code is answered with, where its category's status does not fit (see
   * CATEGORY_STATUS). Declared once with the code, never chosen per answer.
   */
  readonly status?: CodeStatus;
}

/**
 * The status a code's category decides: refusals of the caller's input or authority, and failures of
 * the gateway or a dependency, are `failed` (isError); refusals under the domain's own rules are
 * `rejected`. A code's status is the same in every answer of every tool; the one exception is DESIGN's
 * own rule that a `failed` code becomes `outcome_unknown` where an effect may have happened.
 */
export const CATEGORY_STATUS: Readonly<Record<ErrorCategory, CodeStatus>> = {
  validation: 'failed',
  authentication: 'failed',
  authorization: 'failed',
  not_found: 'rejected',
  state: 'rejected',
  policy: 'rejected',
  conflict: 'rejected',
  confirmation: 'requires_confirmation',
  dependency: 'failed',
  rate_limit: 'failed',
  timeout: 'failed',
  uncertain: 'outcome_unknown',
  internal: 'failed',
};

/** The status every answer carrying this code has. */
export function statusOfCode(spec: Pick<ErrorCodeSpec, 'category' | 'status'>): CodeStatus {
  return spec.status ?? CATEGORY_STATUS[spec.category];
}

/** Whether an answer may carry this code with this status (a `failed` code may be uncertain instead). */
export function statusFitsCode(status: string, spec: Pick<ErrorCodeSpec, 'category' | 'status'>): boolean {
  const fixed = statusOfCode(spec);
  return status === fixed || (fixed === 'failed' && status === 'outcome_unknown');
}

/** Stable error codes are UPPER_SNAKE. */
export const ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Declares a group of error codes; validates their spelling once, at import time. */
export function defineErrorCodes<const T extends Record<string, Omit<ErrorCodeSpec, 'code'>>>(
  specs: T,
): { readonly [K in keyof T]: ErrorCodeSpec & { code: K & string } } {
  const out: Record<string, ErrorCodeSpec> = {};
  for (const [code, spec] of Object.entries(specs)) {
    if (!ERROR_CODE_PATTERN.test(code)) throw new Error(`error code ${code} is not UPPER_SNAKE`);
    out[code] = Object.freeze({ code, ...spec });
  }
  return Object.freeze(out) as { readonly [K in keyof T]: ErrorCodeSpec & { code: K & string } };
}

/** Codes the gateway itself can answer with, whatever the tool. */
export const gatewayErrors = defineErrorCodes({
  INVALID_ARGUMENT: {
    category: 'validation',
    retryable: false,
    description: 'The arguments do not match the input schema; fix the fields named in field_errors.',
  },
  FORBIDDEN: {
    category: 'authorization',
    retryable: false,
    description: 'The caller lacks the authority for this operation; ask someone who has it.',
  },
  IDEMPOTENCY_CONFLICT: {
    category: 'conflict',
    retryable: false,
    status: 'failed',
    description:
      'The idempotency key was already used for a different request; use a new key for a new request.',
  },
  OPERATION_IN_PROGRESS: {
    category: 'conflict',
    retryable: true,
    status: 'in_progress',
    description: 'Another delivery of this operation is still running; poll operations_get.',
  },
  OUTCOME_UNKNOWN: {
    category: 'uncertain',
    retryable: true,
    description:
      'The effect may or may not have happened; poll operations_get or retry with the same key, never a new one.',
  },
  REJECTED_IN_REVIEW: {
    category: 'state',
    retryable: false,
    description:
      'An operator reviewed this operation, whose outcome was unknown, and found it did not take effect; a new request needs a new key.',
  },
  EXECUTION_TIMEOUT: {
    category: 'timeout',
    retryable: true,
    description: 'The operation ran out of time before it could change anything; it may be retried.',
  },
  DEPENDENCY_UNAVAILABLE: {
    category: 'dependency',
    retryable: true,
    description: 'A system this tool depends on did not answer and nothing was changed; retry later.',
  },
  POLICY_DENIED: {
    category: 'authorization',
    retryable: false,
    description:
      "A policy of this gateway does not let this caller make this call; nothing was executed. The message gives the policy's reason; ask someone with the authority, do not retry unchanged.",
  },
  RATE_LIMITED: {
    category: 'rate_limit',
    retryable: true,
    description:
      'This caller sent too many calls; nothing was executed. Wait as long as the message says, then send the same call again.',
  },
  OUTPUT_CONTRACT_VIOLATION: {
    category: 'internal',
    retryable: false,
    description: 'The tool produced a result that breaks its published contract; report it, do not loop.',
  },
  INTERNAL_ERROR: {
    category: 'internal',
    retryable: false,
    description: 'An unexpected failure; report the correlation id, do not loop.',
  },
});

/** Answered only by tools that declare `duplicateSuspicion` (defineTool adds it to their contract). */
export const duplicateErrors = defineErrorCodes({
  POSSIBLE_DUPLICATE: {
    category: 'confirmation',
    retryable: false,
    description:
      'A recent operation had the same content and has or may have taken effect; nothing was changed now. Ask the user whether this is a new, separate request; only if so, call again with the confirmation field set to true, as the resolution says.',
  },
});
