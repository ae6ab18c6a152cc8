import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import { FleetBuckets, type FleetLeases, type FleetLimitEvents } from './fleet-buckets.ts';
import { type FleetWriteClaims, FleetWriteSlots } from './fleet-write-slots.ts';
import { DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL } from './limit-defaults.ts';

type ToolKind = RegisteredTool['definition']['kind'];

/**
 * Per-principal limits; each is per gateway process, or held for the fleet of gateways sharing the
 * database when `fleet` is on and the database is shared (README "Limits").
 */
export interface RateLimitSettings {
  /**
   * Requests per second per principal, with a burst of the same number: each tool call takes one token,
   * other requests their weight (see the transport's request weights); absent: no rate limit.
   */
  readonly perPrincipal?: number;
  /** A separate rate for one class of tools (its own bucket), e.g. `{ write: 2 }`. */
  readonly perPrincipalByKind?: Partial<Record<ToolKind, number>>;
  /** Write/request operations one principal may have executing at once (default 8). */
  readonly writesInFlightPerPrincipal?: number;
  /**
   * Reply bytes per second per principal, with a burst of one second's worth; once spent, the
   * principal's requests are refused until it refills. Absent: reply bytes are not budgeted.
   */
  readonly replyBytesPerSecondPerPrincipal?: number;
  /**
   * Hold these limits for every gateway sharing the database (PostgreSQL), not per process (default
   * true; SQLite is one process's, and its limits stay in-process).
   */
  readonly fleet?: boolean;
}

/** Where a fleet's limits are shared, and who is told when the store fails. */
export interface SharedLimits {
  readonly store: FleetLeases & FleetWriteClaims;
  readonly events: FleetLimitEvents;
  /** How long a gateway's write claims outlive its last renewal (default 15 s). */
  readonly claimTtlMs?: number;
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

/**
 * What a delivery must hold while it executes (its principal's write slot). The keyed path takes it
 * after policy and confirmation, right before the delivery reserves a new operation or takes over one
 * that changed nothing, and gives it back when another delivery got the operation first, so a delivery
 * that joins holds none while it waits. `take` answers null once held, or the refusal that stops the
 * call there, nothing reserved; a slot shared by a fleet of gateways answers once its store has.
 */
export interface ExecutionSlot<H> {
  take(): H | null | Promise<H | null>;
  giveBack(): void;
}

/** A held in-flight slot, or the refusal. */
export type WriteSlot = { ok: true; release(): void } | ({ ok: false } & RateRefusal);

/** The in-flight cap's refusal, as the call's answer. */
export interface InFlightRefusal {
  readonly kind: 'answer';
  readonly envelope: OutcomeEnvelope;
}

interface Bucket {
  tokens: number;
  at: number;
  readonly rate: number;
}

/**
 * The rate-limit layer. Refuses calls before anything about them is stored or executed: a token
 * bucket per principal (and per tool class where one has its own rate), taken before any other check,
 * a budget of reply bytes per principal, and a cap on the principal's distinct operations executing at
 * once, so one caller can neither flood the gateway, nor make it answer without bound, nor hold every
 * database connection. Deliveries of one key share its slot: repeats of an operation that is already
 * running join it and never count against the cap. Given a fleet's shared store, the buckets and the
 * cap are the fleet's (fleet-buckets.ts, fleet-write-slots.ts), and this process's own decide only while
 * the store fails or answers late.
 */
export class PrincipalRateLimiter {
  readonly #settings: RateLimitSettings;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();
  /** Per principal: the keys of its writes about to reserve or executing, with their holders. */
  readonly #writesInFlight = new Map<string, Map<string, number>>();
  readonly #writeCap: number;
  /**
   * Per principal: tool calls a transport refused before the gateway could charge them (a forged
   * confirmation state, headers that disagree with the body, malformed params), paid from its bucket
   * before its next request is admitted.
   */
  readonly #owed = new Map<string, number>();
  /** Per request's copy of its principal (see tally): the tool calls the gateway charged for it. */
  readonly #tallies = new WeakMap<Principal, { charged: number }>();
  /** The fleet's buckets and write slots, when the limits hold for a fleet; the local ones decide otherwise. */
  readonly #fleet: { readonly buckets: FleetBuckets; readonly writes: FleetWriteSlots } | undefined;

  /**
   * `shared`: the fleet's store; the buckets and write slots of this process then decide only while
   * the store fails or is late.
   */
  constructor(
    settings: RateLimitSettings,
    now: () => number = () => performance.now(),
    shared?: SharedLimits,
  ) {
    this.#settings = settings;
    this.#now = now;
    this.#writeCap = settings.writesInFlightPerPrincipal ?? DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL;
    this.#fleet = shared && {
      buckets: new FleetBuckets(shared.store, shared.events, now),
      writes: new FleetWriteSlots(shared.store, this.#writeCap, shared.events, shared.claimTtlMs),
    };
  }

  /** Stops leasing and renewing the fleet's write claims (the gateway is closing). */
  close(): void {
    this.#fleet?.buckets.stop();
    this.#fleet?.writes.stop();
  }

  /**
   * Takes one token from the principal's bucket (or its tool class's) for a tools/call; null when the
   * call may go on. A principal whose reply bytes are spent is refused too.
   */
  takeToken(principal: Principal, kind: ToolKind): RateRefusal | null {
    const tally = this.#tallies.get(principal);
    if (tally) tally.charged += 1;
    const byKind = this.#settings.perPrincipalByKind?.[kind];
    const rate = byKind ?? this.#settings.perPrincipal;
    const who = principalKey(principal);
    const spent = this.#bytesSpent(who);
    if (spent) return spent;
    if (rate === undefined) return null;
    const waitMs = this.#take(byKind === undefined ? who : `${who}\n${kind}`, rate, 1);
    return waitMs > 0 ? { waitMs, reason: `over ${rate} calls per second` } : null;
  }

  /**
   * Takes `weight` tokens from the principal's bucket for any other authenticated request (a listing,
   * a task query, a ping, an operator API call), the same bucket its tool calls draw on; null when the
   * request may go on. A request heavier than the whole burst passes on a full bucket and leaves it in
   * debt, so its weight is still paid before the next request.
   */
  takeRequest(principal: Principal, weight: number): RateRefusal | null {
    const who = principalKey(principal);
    const spent = this.#bytesSpent(who);
    if (spent) return spent;
    const rate = this.#settings.perPrincipal;
    if (rate === undefined || weight <= 0) return null;
    const waitMs = this.#take(who, rate, weight);
    return waitMs > 0 ? { waitMs, reason: `over ${rate} calls per second` } : null;
  }

  /**
   * A copy of `principal` for one request, whose tool calls this limiter counts as the gateway charges
   * them; `settle` then owes the ones it never charged. The copy is what the request hands on.
   */
  tally(principal: Principal, counter: { charged: number } = { charged: 0 }): Principal {
    const copy = { ...principal };
    this.#tallies.set(copy, counter);
    return copy;
  }

  /** Once a request is answered: of its `calls` tool calls, those the gateway did not charge are owed. */
  settle(tallied: Principal, calls: number): void {
    this.owe(tallied, calls - (this.#tallies.get(tallied)?.charged ?? calls));
  }

  /** Tool calls the gateway never charged, to be paid before the principal's next request. */
  owe(principal: Principal, calls: number): void {
    if (calls <= 0 || this.#settings.perPrincipal === undefined) return;
    if (this.#owed.size >= SWEEP_ABOVE_BUCKETS) this.#owed.delete(this.#owed.keys().next().value!);
    const who = principalKey(principal);
    this.#owed.set(who, (this.#owed.get(who) ?? 0) + calls);
  }

  /** Takes what the principal owes from its bucket before anything else; the refusal when it cannot yet. */
  payOwed(principal: Principal): RateRefusal | null {
    const rate = this.#settings.perPrincipal;
    if (rate === undefined) return null;
    const who = principalKey(principal);
    const owed = this.#owed.get(who);
    if (owed === undefined) return null;
    const waitMs = this.#take(who, rate, owed);
    if (waitMs > 0) return { waitMs, reason: `over ${rate} calls per second` };
    this.#owed.delete(who);
    return null;
  }

  /** Counts an answer's bytes against the principal's reply budget (refusals come on its next request). */
  chargeReplyBytes(principal: Principal, bytes: number): void {
    const budget = this.#settings.replyBytesPerSecondPerPrincipal;
    if (budget === undefined || bytes <= 0) return;
    const key = `${principalKey(principal)}\nbytes`;
    if (this.#fleet?.buckets.spend(key, budget, bytes)) return;
    const bucket = this.#refilled(key, budget);
    bucket.tokens -= bytes;
  }

  /** The refusal of a principal whose reply bytes are spent, or null. */
  #bytesSpent(who: string): RateRefusal | null {
    const budget = this.#settings.replyBytesPerSecondPerPrincipal;
    if (budget === undefined) return null;
    const key = `${who}\nbytes`;
    const reason = `over ${budget} reply bytes per second`;
    const shared = this.#fleet?.buckets.check(key, budget);
    if (shared !== undefined && shared !== null) return shared > 0 ? { waitMs: shared, reason } : null;
    const bucket = this.#refilled(key, budget);
    if (bucket.tokens > 0) return null;
    return { waitMs: Math.max(1, Math.ceil((-bucket.tokens / budget) * 1000)), reason };
  }

  /**
   * Holds the principal's write slot for this idempotency key while its operation executes; `release`
   * gives it back once. Deliveries of a key that already holds a slot share it (only one of them can
   * reserve the operation): the cap counts distinct keys.
   */
  holdWrite(principal: Principal, key: string): WriteSlot {
    const who = principalKey(principal);
    const keys = this.#writesInFlight.get(who) ?? new Map<string, number>();
    const holders = keys.get(key) ?? 0;
    if (holders === 0 && keys.size >= this.#writeCap) return { ok: false, ...this.#inFlightRefusal() };
    keys.set(key, holders + 1);
    this.#writesInFlight.set(who, keys);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        const left = (keys.get(key) ?? 1) - 1;
        if (left > 0) keys.set(key, left);
        else keys.delete(key);
        if (keys.size === 0) this.#writesInFlight.delete(who);
      },
    };
  }

  /**
   * The write slot of one keyed call, for the idempotency layer to take right before the call reserves
   * a new operation (a delivery that joins one never takes it); the caller gives back what it still
   * holds once the call is over. For a fleet, the slot is the fleet's, once its store granted it.
   */
  writeSlotFor(tool: RegisteredTool, principal: Principal, key: string): ExecutionSlot<InFlightRefusal> {
    let held: { release(): void } | null = null;
    const fleet = this.#fleet;
    return {
      take: () => {
        if (held) return null;
        if (fleet) {
          return fleet.writes.hold(principalKey(principal), key).then((release) => {
            if (!release) return { kind: 'answer', envelope: rateLimited(tool, this.#inFlightRefusal()) };
            held = { release };
            return null;
          });
        }
        const slot = this.holdWrite(principal, key);
        if (!slot.ok) return { kind: 'answer', envelope: rateLimited(tool, slot) };
        held = slot;
        return null;
      },
      giveBack: () => {
        held?.release();
        held = null;
      },
    };
  }

  #inFlightRefusal(): RateRefusal {
    return { waitMs: IN_FLIGHT_RETRY_MS, reason: `${this.#writeCap} writes in flight` };
  }

  /**
   * 0 when `weight` tokens were taken, else the milliseconds until the bucket holds enough: the weight,
   * or the whole burst for a weight above it. The fleet's bucket decides when there is one and its
   * store answers.
   */
  #take(key: string, rate: number, weight: number): number {
    const shared = this.#fleet?.buckets.take(key, rate, weight);
    if (shared !== undefined && shared !== null) return shared;
    const bucket = this.#refilled(key, rate);
    const needed = Math.min(weight, rate);
    if (bucket.tokens >= needed) {
      bucket.tokens -= weight;
      return 0;
    }
    return Math.ceil(((needed - bucket.tokens) / rate) * 1000);
  }

  /** The key's bucket, refilled at `rate` per second up to `rate` for the time since it was last used. */
  #refilled(key: string, rate: number): Bucket {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_ABOVE_BUCKETS) this.#sweep(now);
      bucket = { tokens: rate, at: now, rate };
      this.#buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    return bucket;
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
