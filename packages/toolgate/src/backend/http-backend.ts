import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { OperationSnapshot, ReconcileVerdict } from '../contract/define-tool.ts';
import type { DependencyResult } from '../telemetry/call-annotations.ts';
import {
  type AttemptVerdict,
  type BackendResult,
  classifyAnswer,
  failureOfFetchError,
  type RejectionRules,
  UNREADABLE_ANSWER,
} from './backend-failure.ts';
import { resolveRetryPolicy, runAttempts } from './backend-retry.ts';
import { dependencyResultOf } from './dependency-result.ts';
import { type LookupContext, lookupOperationStatus, type StatusLookup } from './status-lookup.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpBackendOptions {
  /** http(s) URL of the service, optionally with a path prefix; checked at creation. */
  readonly baseUrl: string;
  /** Header that carries the operation id; default `Idempotency-Key`. */
  readonly idempotencyHeader?: string;
  /**
   * Sent on every call (e.g. service credentials); a function is asked once per call with that call's
   * context, so it can carry per-caller identity (a ToolContext's principal) the way the service wants it.
   */
  readonly headers?:
    | Readonly<Record<string, string>>
    | ((ctx: BackendCallContext) => Record<string, string> | Promise<Record<string, string>>);
  /** Cap per attempt, body included; default what remains until `ctx.deadline`, or 10 s without one. */
  readonly attemptTimeoutMs?: number;
  readonly retry?: {
    readonly attempts?: number;
    readonly baseDelayMs?: number;
    readonly maxDelayMs?: number;
  };
  /** True when the service deduplicates writes by the idempotency header: keyed writes become repeatable. */
  readonly dedupesByKey?: boolean;
  /**
   * The fetch every request goes through; default the global fetch, looked up at each request. A test
   * passes one that injects faults (the simulation kit's `faultingFetch`).
   */
  readonly fetch?: typeof fetch;
}

/** What a call needs from its caller; a ToolContext satisfies it structurally. */
export interface BackendCallContext {
  /** Aborting it ends the call at once: an attempt in flight is cut, a back-off wait ends. */
  readonly signal: AbortSignal;
  /** Its id is sent in the idempotency header. */
  readonly operation?: { readonly id: string } | null;
  readonly correlationId?: string;
  /** A W3C traceparent to continue; a fresh one is made when absent or malformed. */
  readonly traceparent?: string;
  /** Epoch milliseconds after which no attempt starts and no wait ends. */
  readonly deadline?: number;
  /** Told what the service answered each call (a ToolContext's records it in the call's audit and span). */
  readonly annotate?: (facts: { readonly dependency_result: DependencyResult }) => void;
}

export interface BackendRequest<S extends z.ZodType> {
  readonly method: HttpMethod;
  /** Joined to baseUrl; `{name}` placeholders take `params`, percent-encoded. */
  readonly path: string;
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** The schema a 2xx JSON body (empty = null) must match. */
  readonly response: S;
  /** 4xx statuses (429 excepted) that are domain refusals; any other 4xx is `unexpected_status`. */
  readonly rejections?: RejectionRules;
  /** Safe to send again? Default: GET/HEAD yes; others iff `dedupesByKey` and an operation id is sent. */
  readonly repeatable?: boolean;
}

/** A client for one team service that classifies every failure by what it proves was (not) applied. */
export interface HttpBackend {
  /** The base URL every path is joined under, with a trailing slash. */
  readonly baseUrl: string;
  /** Never throws except for programmer errors (a bad path, params or body); every failure is a result. */
  call<S extends z.ZodType>(
    ctx: BackendCallContext,
    request: BackendRequest<S>,
  ): Promise<BackendResult<z.output<S>>>;
  /** A reconcile hook's answer from the service's status resource for the operation id. */
  lookup<S extends z.ZodType, R>(
    operation: Pick<OperationSnapshot, 'id'>,
    ctx: LookupContext,
    spec: StatusLookup<S, R>,
  ): Promise<ReconcileVerdict<R>>;
}

const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A random W3C traceparent; one fixed bit keeps the ids from being all zeros, which W3C forbids. */
function freshTraceparent(): string {
  const [traceId, parentId] = [randomBytes(16), randomBytes(8)];
  traceId[15]! |= 1;
  parentId[7]! |= 1;
  return `00-${traceId.toString('hex')}-${parentId.toString('hex')}-01`;
}

/** The base as a directory URL (trailing slash); throws (a programmer error) unless plain http(s). */
function parseBaseUrl(baseUrl: string): URL {
  const url = URL.parse(baseUrl);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`http backend: baseUrl ${JSON.stringify(baseUrl)} is not an http(s) URL`);
  }
  // fetch refuses credentials in a URL, and a query or fragment could not be joined to a path.
  if (url.username || url.password || url.search || url.hash) {
    throw new Error('http backend: baseUrl must have no credentials, query or fragment');
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The request's URL under the base. Throws (a programmer error) on a missing or unused param, or a path
 * that would leave the base: `.` and `..` survive percent-encoding as dot segments, so they are refused.
 */
function backendUrl(base: URL, request: BackendRequest<z.ZodType>): string {
  if (!request.path.startsWith('/')) throw new Error(`http backend: path ${request.path} must start with /`);
  const unused = new Set(Object.keys(request.params ?? {}));
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    unused.delete(name);
    if (value === undefined) throw new Error(`http backend: path ${request.path} needs param ${name}`);
    const text = String(value);
    if (text === '' || text === '.' || text === '..')
      throw new Error(`http backend: param ${name} is not a path segment`);
    return encodeURIComponent(text);
  });
  if (unused.size > 0)
    throw new Error(`http backend: params ${[...unused].join(', ')} are not in ${request.path}`);
  // './' keeps a colon in the first segment from reading as a scheme.
  const url = new URL(`.${path}`, base);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(base.pathname)) {
    throw new Error(`http backend: path ${request.path} leaves the base URL`);
  }
  return url.href;
}

/**
 * A backend client on Node's fetch. Throws (a programmer error) on bad options. Every call sends the
 * operation id as the idempotency header, retries only what is safe to send again, and answers
 * `unavailable` only when nothing can have been applied.
 */
export function createHttpBackend(options: HttpBackendOptions): HttpBackend {
  const base = parseBaseUrl(options.baseUrl);
  const policy = resolveRetryPolicy(options.retry);
  const idempotencyHeader = options.idempotencyHeader ?? 'Idempotency-Key';
  // Headers throws on a bad name or value, so a bad option fails here rather than on the first call.
  new Headers({ [idempotencyHeader]: 'x', ...(typeof options.headers === 'object' ? options.headers : {}) });
  const { attemptTimeoutMs } = options;
  const fetchOnce: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  if (attemptTimeoutMs !== undefined && !(Number.isFinite(attemptTimeoutMs) && attemptTimeoutMs > 0)) {
    throw new Error('http backend: attemptTimeoutMs must be a positive number');
  }

  async function call<S extends z.ZodType>(
    ctx: BackendCallContext,
    request: BackendRequest<S>,
  ): Promise<BackendResult<z.output<S>>> {
    const last = { timedOut: false };
    const result = await answer(ctx, request, last);
    ctx.annotate?.({ dependency_result: dependencyResultOf(result, last.timedOut) });
    return result;
  }

  /** `last.timedOut` says whether the last attempt was cut by its timeout (not by the caller). */
  async function answer<S extends z.ZodType>(
    ctx: BackendCallContext,
    request: BackendRequest<S>,
    last: { timedOut: boolean },
  ): Promise<BackendResult<z.output<S>>> {
    const { method } = request;
    const safe = method === 'GET' || method === 'HEAD';
    if (safe && request.body !== undefined)
      throw new Error(`http backend: a ${method} request cannot have a body`);
    const url = backendUrl(base, request);
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    const operationId = ctx.operation?.id;
    const repeatable =
      request.repeatable ?? (safe || (options.dedupesByKey === true && operationId !== undefined));
    // A repeatable GET/HEAD changes nothing; anything else may, however it failed.
    const effectful = !(safe && repeatable);
    const deadline = ctx.deadline ?? null;
    if (ctx.signal.aborted || (deadline !== null && Date.now() >= deadline)) {
      return { kind: 'unavailable', reason: 'cancelled or out of time before anything was sent' };
    }
    let extra: Readonly<Record<string, string>> | undefined;
    try {
      extra = typeof options.headers === 'function' ? await options.headers(ctx) : options.headers;
    } catch {
      return { kind: 'unavailable', reason: 'the headers provider failed before anything was sent' };
    }
    const headers = new Headers(extra);
    headers.set('accept', 'application/json');
    if (payload !== undefined) headers.set('content-type', 'application/json');
    if (operationId !== undefined) headers.set(idempotencyHeader, operationId);
    const continued = ctx.traceparent !== undefined && TRACEPARENT.test(ctx.traceparent);
    headers.set('traceparent', continued ? ctx.traceparent! : freshTraceparent());
    if (ctx.correlationId !== undefined) headers.set('x-correlation-id', ctx.correlationId);

    const attempt = async (signal: AbortSignal): Promise<AttemptVerdict<z.output<S>>> => {
      const response = await fetchOnce(url, {
        method,
        headers,
        body: payload,
        signal,
        redirect: 'manual',
      }).catch((error: unknown) => failureOfFetchError(error));
      if (!(response instanceof Response)) return { kind: 'failure', failure: response };
      const text = await response.text().catch(() => null);
      if (text === null) return { kind: 'failure', failure: UNREADABLE_ANSWER };
      const answer = { status: response.status, retryAfter: response.headers.get('retry-after'), text };
      return classifyAnswer(answer, request, effectful, Date.now());
    };
    const send = async (signal: AbortSignal): Promise<AttemptVerdict<z.output<S>>> => {
      const verdict = await attempt(signal);
      last.timedOut = signal.aborted && !ctx.signal.aborted;
      return verdict;
    };
    const budget = { signal: ctx.signal, deadline, attemptTimeoutMs: attemptTimeoutMs ?? null };
    return runAttempts(policy, budget, { repeatable, effectful }, send);
  }

  const backend: HttpBackend = {
    baseUrl: base.href,
    call,
    lookup: (operation, ctx, spec) => lookupOperationStatus(backend, operation, ctx, spec),
  };
  return Object.freeze(backend);
}
