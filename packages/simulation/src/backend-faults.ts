import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Faults armed against real HTTP services, for evaluations and tests: the answer lost after the service
 * applied the request, a delay before it is sent, a refused connection. They act through a fetch: the
 * one `faultingFetch` makes, given to `createHttpBackend({ fetch })`, or the global fetch once
 * `interceptGlobalFetch` has wrapped it (for backends that take the default). The registry lives on the
 * global object, so a harness and tools that load the kit from different copies of the package share it.
 */
export type BackendFaultKind = 'drop_response_after_apply' | 'delay_ms' | 'unavailable';

export interface BackendFaultSpec {
  /** The service's host (`127.0.0.1:4100`) or a base URL its requests start with. */
  readonly target: string;
  readonly fault: BackendFaultKind;
  /** Matching requests it affects (default 1), after letting `skip` through. */
  readonly times?: number;
  readonly skip?: number;
  /** Only requests with this method and/or a path containing this text. */
  readonly match?: { readonly method?: string; readonly path?: string };
  readonly params?: { readonly ms?: number };
}

interface Armed extends BackendFaultSpec {
  remaining: number;
  skipping: number;
  applied: number;
}

const KEY = Symbol.for('toolgate.simulation.backend-faults');
const registry = (): Armed[] => {
  const holder = globalThis as { [KEY]?: Armed[] };
  holder[KEY] ??= [];
  return holder[KEY];
};

/** The armed faults every faulting fetch of this process consults. */
export const backendFaults = {
  arm(spec: BackendFaultSpec): void {
    registry().push({ ...spec, remaining: spec.times ?? 1, skipping: spec.skip ?? 0, applied: 0 });
  },
  /** Faults still armed that no request has met yet (a fault that targets nothing stays here). */
  unapplied(): BackendFaultSpec[] {
    return registry().filter((f) => f.applied === 0);
  },
  clear(): void {
    registry().length = 0;
  },
};

const targets = (fault: Armed, url: URL) => fault.target === url.host || url.href.startsWith(fault.target);

/** A connection the service never accepted: the backend kit reads it as "nothing was sent". */
const refused = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
/** The service answered and the answer never arrived: the backend kit reads it as "may have been applied". */
const lost = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });

/** The global fetch as it was before any interception, looked up at each call otherwise. */
const plainFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/**
 * A fetch that sends each request through whatever fault is armed for it, and otherwise through
 * `inner` (default: the global fetch). Give it to `createHttpBackend({ fetch })`.
 */
export function faultingFetch(inner: typeof fetch = plainFetch): typeof fetch {
  return async (input, init) => {
    // Read without building a Request, which would take hold of a streamed body.
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const fault = registry().find(
      (f) =>
        f.remaining > 0 &&
        targets(f, url) &&
        (f.match?.method === undefined || f.match.method === method) &&
        (f.match?.path === undefined || url.pathname.includes(f.match.path)),
    );
    const send = () => inner(input, init);
    if (!fault) return send();
    if (fault.skipping > 0) {
      fault.skipping -= 1;
      return send();
    }
    fault.remaining -= 1;
    fault.applied += 1;
    if (fault.fault === 'unavailable') throw refused();
    if (fault.fault === 'delay_ms') {
      await sleep(fault.params?.ms ?? 1000);
      return send();
    }
    const response = await send();
    await response.arrayBuffer().catch(() => undefined);
    throw lost();
  };
}

const INTERCEPTED = Symbol.for('toolgate.simulation.intercepted-fetch');

/**
 * Wraps the global fetch in a faulting one, once per process, so that armed faults reach backends
 * created without a fetch of their own (a config's modules in an evaluation). Without armed faults
 * every request passes through unchanged.
 */
export function interceptGlobalFetch(): void {
  const holder = globalThis as { fetch: typeof fetch; [INTERCEPTED]?: true };
  if (holder[INTERCEPTED]) return;
  const original = holder.fetch.bind(globalThis);
  holder.fetch = faultingFetch(original);
  holder[INTERCEPTED] = true;
}
