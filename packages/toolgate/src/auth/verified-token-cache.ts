import type { Principal } from './principal.ts';

const MAX_ENTRIES = 1000;
const MAX_AGE_MS = 60_000;

/**
 * Tokens verified recently, each kept until its own expiry or at most a minute, whichever is
 * first, so revocation at the authorization server takes effect within that minute. Bounded: the
 * oldest entry goes when the cache is full.
 */
export class VerifiedTokenCache {
  readonly #entries = new Map<string, { principal: Principal; until: number }>();

  get(token: string): Principal | null {
    const entry = this.#entries.get(token);
    if (!entry) return null;
    if (entry.until <= Date.now()) {
      this.#entries.delete(token);
      return null;
    }
    return entry.principal;
  }

  put(token: string, principal: Principal, expiresAtMs: number): void {
    const until = Math.min(expiresAtMs, Date.now() + MAX_AGE_MS);
    if (until <= Date.now()) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, { principal, until });
  }
}
