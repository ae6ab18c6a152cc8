import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import { buildEnvelope } from './envelope-builder.ts';
import { DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL } from './limit-defaults.ts';

type ToolKind = RegisteredTool['definition']['kind'];

/** Per-principal limits; each is per gateway process (see README "Limits"). */
export interface RateLimitSettings {
  /** Calls per second per principal, with a burst of the same number; absent: no rate limit. */
  readonly perPrincipal?: number;
  /** A separate rate for one class of tools (its own bucket), e.g. `{ write: 2 }`. */
  readonly perPrincipalByKind?: Partial<Record<ToolKind, number>>;
  /** Write/request calls one principal may have executing at once (default 8). */
  readonly writesInFlightPerPrincipal?: number;
}

/** How long to suggest waiting when the in-flight cap, not the rate, refused the call. */
const IN_FLIGHT_RETRY_MS = 250;
/** Past this many buckets, full ones (principals idle for a second or more) are forgotten. */
const SWEEP_ABOVE_BUCKETS = 10_000;

/** Why a call was refused and how long to wait before the same call may pass. */
export interface RateRefusal {
  readonly waitMs: number;
  readonly reason: string;
}

/** A held in-flight slot, or the refusal. */
export type WriteSlot = { ok: true; release(): void } | ({ ok: false } & RateRefusal);

interface Bucket {
  tokens: number;
  at: number;
  readonly rate: number;
}

/**
 * Refuses calls before anything about them is stored or executed: a token bucket per principal (and
 * per tool class where one has its own rate), taken before any other check, and a cap on the
 * principal's writes executing at once, so one caller can neither flood the gateway nor hold every
 * database connection.
 */
export class PrincipalRateLimiter {
  readonly #settings: RateLimitSettings;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();
  readonly #writesInFlight = new Map<string, number>();
  readonly #writeCap: number;

  constructor(settings: RateLimitSettings, now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
    this.#writeCap = settings.writesInFlightPerPrincipal ?? DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL;
  }

  /** Takes one token from the principal's bucket (or its tool class's); null when the call may go on. */
  takeToken(principal: Principal, kind: ToolKind): RateRefusal | null {
    const byKind = this.#settings.perPrincipalByKind?.[kind];
    const rate = byKind ?? this.#settings.perPrincipal;
    if (rate === undefined) return null;
    const who = principalKey(principal);
    const waitMs = this.#take(byKind === undefined ? who : `${who}\n${kind}`, rate);
    return waitMs > 0 ? { waitMs, reason: `over ${rate} calls per second` } : null;
  }

  /** Holds one of the principal's write slots while a write executes; `release` gives it back once. */
  holdWrite(principal: Principal): WriteSlot {
    const who = principalKey(principal);
    const held = this.#writesInFlight.get(who) ?? 0;
    if (held >= this.#writeCap) {
      return { ok: false, waitMs: IN_FLIGHT_RETRY_MS, reason: `${this.#writeCap} writes in flight` };
    }
    this.#writesInFlight.set(who, held + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#writesInFlight.get(who) ?? 1) - 1;
        if (left <= 0) this.#writesInFlight.delete(who);
        else this.#writesInFlight.set(who, left);
      },
    };
  }

  /** 0 when a token was taken, else the milliseconds until one is available. */
  #take(key: string, rate: number): number {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_ABOVE_BUCKETS) this.#sweep(now);
      bucket = { tokens: rate, at: now, rate };
      this.#buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / rate) * 1000);
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * bucket.rate >= bucket.rate) this.#buckets.delete(key);
    }
  }
}

const principalKey = (principal: Principal): string => `${principal.tenant}\n${principal.subject}`;

/** `failed` / `RATE_LIMITED`: nothing ran and no key was reserved; the same call may succeed after the wait. */
export function rateLimited(tool: RegisteredTool, { waitMs, reason }: RateRefusal): OutcomeEnvelope {
  const seconds = (waitMs / 1000).toFixed(waitMs < 1000 ? 2 : 1);
  return buildEnvelope(tool, {
    status: 'failed',
    code: 'RATE_LIMITED',
    message: `Too many calls from this caller (${reason}); nothing was executed. Wait ${seconds} s.`,
    resolution: `Wait at least ${waitMs} ms, then send the same call again (with the same idempotency_key for a write).`,
    warnings: [{ code: 'RETRY_AFTER_MS', message: String(waitMs) }],
  });
}
