/**
 * The model could not be asked or gave no usable answer: its endpoint was unreachable, answered an
 * HTTP error or a rate limit, or sent something that is not a model answer. Nothing the agent did
 * caused it, so a trial that meets it is errored, never failed, and is scored apart.
 */
export class ModelUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ModelUnavailableError';
  }
}

interface ErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly statusCode?: unknown;
  readonly url?: unknown;
  readonly cause?: unknown;
  readonly lastError?: unknown;
  readonly code?: unknown;
}

/**
 * One line saying why the model endpoint gave no answer, from an error the model client threw:
 * `rate limited (HTTP 429) by URL`, `HTTP 503 from URL: …`, `cannot reach URL: …`, or
 * `malformed model answer: …`. Retries are seen through to the last error.
 */
export function modelFailureReason(error: unknown): string {
  let current = error as ErrorLike | null;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    if (current.name === 'AI_RetryError' && current.lastError) {
      current = current.lastError as ErrorLike;
      continue;
    }
    break;
  }
  const message = messageOf(current);
  if (current && typeof current === 'object' && current.name === 'AI_APICallError') {
    const url = typeof current.url === 'string' ? current.url : 'the model endpoint';
    if (typeof current.statusCode === 'number' && current.statusCode < 300)
      return `malformed model answer from ${url}: ${message}`;
    if (current.statusCode === 429) return `rate limited (HTTP 429) by ${url}: ${message}`;
    if (typeof current.statusCode === 'number') return `HTTP ${current.statusCode} from ${url}: ${message}`;
    return `cannot reach ${url}: ${networkCause(current) ?? message}`;
  }
  const network = networkCause(current);
  if (network) return `cannot reach the model endpoint: ${network}`;
  return `malformed model answer: ${message}`;
}

function networkCause(error: ErrorLike | null): string | null {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = e.cause as ErrorLike, depth += 1
  ) {
    if (typeof e.code === 'string' && /^(?:E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(e.code))
      return `${e.code} ${messageOf(e)}`;
  }
  return null;
}

function messageOf(error: ErrorLike | null): string {
  if (!error || typeof error !== 'object') return String(error);
  return typeof error.message === 'string' && error.message ? error.message : String(error.name ?? 'error');
}
