import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';

/** Distinct scope sets remembered; past this the cache starts over (scope sets are few in practice). */
const MAX_SCOPE_SETS = 256;

/**
 * The serialized `tools/list` result per scope set. The listing never changes while the process
 * runs, so it is serialized once per scope set instead of once per request.
 */
export class SerializedListings {
  readonly #gateway: Gateway;
  readonly #byScopes = new Map<string, string>();

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
  }

  /** The JSON text of `{ tools: [...] }` as this principal may see it. */
  resultFor(principal: Principal): string {
    const key = [...principal.scopes].sort().join(' ');
    let text = this.#byScopes.get(key);
    if (text === undefined) {
      if (this.#byScopes.size >= MAX_SCOPE_SETS) this.#byScopes.clear();
      text = JSON.stringify({ tools: this.#gateway.listTools(principal) });
      this.#byScopes.set(key, text);
    }
    return text;
  }
}
