import { randomUUID } from 'node:crypto';
import type { FleetLimitEvents } from './fleet-buckets.ts';

/** Where the write slots each gateway of a fleet holds per principal are kept. */
export interface FleetWriteClaims {
  /**
   * Sets `gateway`'s claim on the principal's slots to `held`, only if every gateway's live claims stay
   * within `cap`; true when set. A claim lives `ttlMs` unless renewed.
   */
  claim(principal: string, gateway: string, held: number, cap: number, ttlMs: number): Promise<boolean>;
  /** Lowers `gateway`'s claim to `held` (0: gone). */
  lower(principal: string, gateway: string, held: number, ttlMs: number): Promise<void>;
  /** Renews every claim of `gateway` for another `ttlMs`, and forgets rows long expired. */
  renew(gateway: string, ttlMs: number): Promise<void>;
}

/** How long a claim outlives its gateway's last renewal (renewed every third of it). */
export const DEFAULT_CLAIM_TTL_MS = 15_000;

interface PrincipalWrites {
  /** The keys this gateway holds a slot for (or is claiming one for), with their deliveries. */
  readonly keys: Map<string, number>;
  /** Slots the shared claim covers. */
  claimed: number;
  /** The claims and lowerings of this principal, one after another so each sets what the last left. */
  queue: Promise<unknown>;
}

/**
 * The writes-in-flight cap held for a fleet: each gateway claims the slots its principals' writes
 * execute in, in a shared row per gateway and principal that only grows while the fleet's live claims
 * stay within the cap, and lowers it as they finish. Claims are renewed while the gateway runs; a
 * gateway that stops (it crashed) holds none once its claims expire. When the store fails, the slot is
 * decided by the gateway's own count and the failure is told.
 */
export class FleetWriteSlots {
  readonly #store: FleetWriteClaims;
  readonly #cap: number;
  readonly #ttlMs: number;
  readonly #events: FleetLimitEvents;
  readonly #gateway = randomUUID();
  readonly #writes = new Map<string, PrincipalWrites>();
  readonly #renewal: NodeJS.Timeout;
  #stopped = false;

  constructor(store: FleetWriteClaims, cap: number, events: FleetLimitEvents, ttlMs = DEFAULT_CLAIM_TTL_MS) {
    this.#store = store;
    this.#cap = cap;
    this.#ttlMs = ttlMs;
    this.#events = events;
    this.#renewal = setInterval(() => {
      this.#store.renew(this.#gateway, this.#ttlMs).catch((error: unknown) => this.#failed(error));
    }, ttlMs / 3);
    this.#renewal.unref();
  }

  /**
   * Holds `who`'s slot for `key`: deliveries of a key this gateway already holds share its slot; a new
   * key is held once the fleet's claims cover it. Resolves to the release, or null when the fleet's
   * slots are all taken (or this gateway alone holds the cap).
   */
  async hold(who: string, key: string): Promise<(() => void) | null> {
    const writes = this.#writes.get(who) ?? {
      keys: new Map<string, number>(),
      claimed: 0,
      queue: Promise.resolve(),
    };
    this.#writes.set(who, writes);
    const holders = writes.keys.get(key) ?? 0;
    if (holders === 0 && writes.keys.size >= this.#cap) return null;
    writes.keys.set(key, holders + 1);
    if (holders === 0 && !(await this.#cover(who, writes))) {
      this.#drop(who, writes, key);
      return null;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#drop(who, writes, key);
    };
  }

  /** Stops renewing the claims (the gateway is closing; they expire unless lowered first). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#renewal);
  }

  /** A failure of the store while the gateway runs (one after it closed is its pool's, not the store's). */
  #failed(error: unknown): void {
    if (!this.#stopped) this.#events.failed(error);
  }

  /** Grows the claim by one slot unless it covers every key held already; false when the fleet is full. */
  #cover(who: string, writes: PrincipalWrites): Promise<boolean> {
    const covered = writes.queue.then(async () => {
      if (writes.claimed >= writes.keys.size) return true;
      const held = writes.claimed + 1;
      try {
        if (!(await this.#store.claim(who, this.#gateway, held, this.#cap, this.#ttlMs))) return false;
      } catch (error) {
        // The store did not answer: the gateway's own count (checked already) decides.
        this.#failed(error);
        return true;
      }
      writes.claimed = held;
      return true;
    });
    writes.queue = covered;
    return covered;
  }

  /** One delivery of `key` is over; a key none holds any more gives its slot back to the fleet. */
  #drop(who: string, writes: PrincipalWrites, key: string): void {
    const left = (writes.keys.get(key) ?? 1) - 1;
    if (left > 0) {
      writes.keys.set(key, left);
      return;
    }
    writes.keys.delete(key);
    writes.queue = writes.queue.then(async () => {
      const held = writes.keys.size;
      if (held < writes.claimed) {
        try {
          await this.#store.lower(who, this.#gateway, held, this.#ttlMs);
          writes.claimed = held;
        } catch (error) {
          // Kept claimed here as in the store: the next lowering, or the claim's expiry, frees it.
          this.#failed(error);
        }
      }
      if (writes.keys.size === 0 && writes.claimed === 0 && this.#writes.get(who) === writes)
        this.#writes.delete(who);
    });
  }
}
