import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Faults armed against real HTTP services reached through the backend kit, for evaluations and tests:
 * the answer lost after the service applied the request, a delay before it is sent, a refused
 * connection. The registry lives on the global object, so a harness and tools that load the kit from
 * different copies of the package share it; nothing is armed in normal serving.
 */
export type BackendFaultKind = 'drop_response_after_apply' | 'delay_ms' | 'unavailable';

export interface BackendFaultSpec {
  /** The service's host (`127.0.0.1:4100`) or base URL as the backend was created with. */
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

const KEY = Symbol.for('toolgate.backend-faults');
const registry = (): Armed[] => {
  const holder = globalThis as { [KEY]?: Armed[] };
  holder[KEY] ??= [];
  return holder[KEY];
};

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

const targets = (fault: Armed, base: URL) => fault.target === base.host || fault.target === base.href;

/** A connection the service never accepted: the kit reads it as "nothing was sent". */
const refused = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
/** The service answered and the answer never arrived: the kit reads it as "may have been applied". */
const lost = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });

/** Sends one request through whatever fault is armed for it. */
export async function throughBackendFaults(
  base: URL,
  method: string,
  url: string,
  send: () => Promise<Response>,
): Promise<Response> {
  const fault = registry().find(
    (f) =>
      f.remaining > 0 &&
      targets(f, base) &&
      (f.match?.method === undefined || f.match.method === method) &&
      (f.match?.path === undefined || new URL(url).pathname.includes(f.match.path)),
  );
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
}
