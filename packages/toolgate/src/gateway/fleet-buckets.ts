/** What one lease was granted, and what its shared bucket holds after it. */
export interface FleetLease {
  readonly granted: number;
  readonly left: number;
}

/** Where the token buckets every gateway of a fleet draws on are kept (one per principal and limit). */
export interface FleetLeases {
  /**
   * Takes up to `want` tokens from the shared bucket `bucket` (burst `burst`, refilled at `rate` per
   * second, full when new), in one atomic step; answers what it granted.
   */
  lease(bucket: string, burst: number, rate: number, want: number): Promise<FleetLease>;
}

/** What the fleet limiter tells the gateway: each failure of the shared store, and when it decides alone. */
export interface FleetLimitEvents {
  /** The shared store failed, or answered too late, once. */
  failed(error: unknown): void;
  /** The rate and reply-byte limits are decided in this process alone (true), or by the fleet again. */
  local(on: boolean): void;
}

/** One lease is a twentieth of a second's worth of the rate (at least one token). */
const LEASE_SHARE = 0.05;
/** Leased tokens unused this long are dropped: an idle gateway keeps no burst of its own. */
const LEASE_TTL_MS = 1_000;
/** A lease not answered within this long: the limits are decided in this process until the store answers. */
const LEASE_LATE_MS = 1_000;
/** After the shared store failed, how long this process decides alone before it asks the store again. */
const LOCAL_AFTER_FAILURE_MS = 5_000;
/** Past this many buckets, the ones neither leasing nor owing and idle a second are forgotten. */
const SWEEP_ABOVE_BUCKETS = 10_000;

interface LeasedBucket {
  /** Leased and not spent; below 0, spent on credit and owed to the shared bucket. */
  tokens: number;
  leasedAt: number;
  /** When the lease in flight was asked for; null when none is. */
  leasingSince: number | null;
  /** No lease before this (the shared bucket was spent: wait for it to refill). */
  nextLeaseAt: number;
  /** A lease has answered: the credit is one lease from now on. */
  warm: boolean;
}

/** The tokens one lease takes at `rate`; also the credit a gateway may spend ahead of its lease. */
export const leaseSize = (rate: number): number => Math.max(1, rate * LEASE_SHARE);

/**
 * What the bucket may spend ahead of its leases: one lease, or the whole burst before its first lease
 * answers, so a principal's first calls on a gateway (a batch, say) get the burst they would get from
 * one process, not a refusal for the lease's round trip.
 */
const creditOf = (bucket: LeasedBucket, rate: number): number => (bucket.warm ? leaseSize(rate) : rate);

/**
 * Token buckets shared by a fleet of gateways, drawn on in small leases so the hot path stays in
 * memory: each gateway holds a few tokens per bucket, spends them synchronously, and leases the next
 * ones from the shared bucket as it runs out (one lease in flight per bucket). A gateway may spend
 * up to one lease on credit while a lease is on its way (the burst, before its first one); the next
 * leases repay it first, so the fleet spends no more than the shared bucket gave plus what its
 * gateways still owe, and leaves at most one lease per gateway unspent. When the store fails or is late,
 * `take` answers null: the caller decides with its own in-process buckets until the store answers.
 */
export class FleetBuckets {
  readonly #store: FleetLeases;
  readonly #now: () => number;
  readonly #events: FleetLimitEvents;
  readonly #buckets = new Map<string, LeasedBucket>();
  #localUntil = -Infinity;
  #local = false;
  #stopped = false;

  constructor(store: FleetLeases, events: FleetLimitEvents, now: () => number = () => performance.now()) {
    this.#store = store;
    this.#events = events;
    this.#now = now;
  }

  /**
   * Takes `weight` tokens from the shared bucket `key` (burst and rate `rate`): 0 when taken, else the
   * milliseconds until enough may be there (the weight, or the whole burst for a weight above it);
   * null when the limit is to be decided locally.
   */
  take(key: string, rate: number, weight: number): number | null {
    const bucket = this.#ready(key);
    if (!bucket) return null;
    const size = leaseSize(rate);
    const needed = Math.min(weight, rate);
    const short = needed - (bucket.tokens + creditOf(bucket, rate));
    if (short <= 0) bucket.tokens -= weight;
    this.#leaseAhead(key, bucket, rate, Math.max(size, needed));
    return short <= 0 ? 0 : waitFor(short, rate);
  }

  /** 0 while the bucket `key` holds anything, else the milliseconds until it may; null: decide locally. */
  check(key: string, rate: number): number | null {
    const bucket = this.#ready(key);
    if (!bucket) return null;
    this.#leaseAhead(key, bucket, rate, leaseSize(rate));
    const short = -(bucket.tokens + creditOf(bucket, rate));
    return short < 0 ? 0 : waitFor(short, rate);
  }

  /** Spends `amount` from the bucket `key` without asking (reply bytes, once written); false: spend it locally. */
  spend(key: string, rate: number, amount: number): boolean {
    const bucket = this.#ready(key);
    if (!bucket) return false;
    bucket.tokens -= amount;
    this.#leaseAhead(key, bucket, rate, leaseSize(rate));
    return true;
  }

  /** Asks the store for nothing more (the gateway is closing). */
  stop(): void {
    this.#stopped = true;
  }

  /** Whether the limits are being decided in this process now (the shared store failed or is late). */
  get local(): boolean {
    return this.#local;
  }

  /** The bucket to decide on, or null when the decision is local. */
  #ready(key: string): LeasedBucket | null {
    const now = this.#now();
    if (now < this.#localUntil) return null;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_ABOVE_BUCKETS) this.#sweep(now);
      bucket = { tokens: 0, leasedAt: now, leasingSince: null, nextLeaseAt: 0, warm: false };
      this.#buckets.set(key, bucket);
    }
    if (bucket.leasingSince !== null && now - bucket.leasingSince > LEASE_LATE_MS) {
      this.#goLocal(now, new Error(`a lease of the shared limits took over ${LEASE_LATE_MS} ms`));
      return null;
    }
    if (bucket.tokens > 0 && now - bucket.leasedAt > LEASE_TTL_MS) bucket.tokens = 0;
    return bucket;
  }

  /**
   * Leases `size` tokens (and what the bucket owes) once it has none left: the credit covers the calls
   * that come while the lease is on its way, so a lease is asked for once per `size` tokens spent.
   */
  #leaseAhead(key: string, bucket: LeasedBucket, rate: number, size: number): void {
    const now = this.#now();
    if (this.#stopped || bucket.leasingSince !== null || now < bucket.nextLeaseAt || bucket.tokens > 0)
      return;
    const want = size - bucket.tokens;
    bucket.leasingSince = now;
    this.#store.lease(key, rate, rate, want).then(
      ({ granted }) => {
        const at = this.#now();
        bucket.leasingSince = null;
        bucket.warm = true;
        bucket.tokens += granted;
        bucket.leasedAt = at;
        // The shared bucket is spent: the next lease waits until it refilled what this one lacked, and
        // is asked for then even if no call comes, so a principal that stops comes back owing nothing.
        bucket.nextLeaseAt = granted < want ? at + ((want - granted) / rate) * 1000 : 0;
        if (granted < want) {
          // A timer may fire a little before the clock reads its due time: it is due when it fires.
          const due = bucket.nextLeaseAt;
          setTimeout(() => {
            if (bucket.nextLeaseAt === due) bucket.nextLeaseAt = 0;
            this.#leaseAhead(key, bucket, rate, size);
          }, due - at).unref();
        }
        if (this.#local && at >= this.#localUntil) {
          this.#local = false;
          this.#events.local(false);
        }
      },
      (error: unknown) => {
        bucket.leasingSince = null;
        // A lease still on its way when the gateway closed fails with its pool: nothing to fall back from.
        if (!this.#stopped) this.#goLocal(this.#now(), error);
      },
    );
  }

  #goLocal(now: number, error: unknown): void {
    this.#events.failed(error);
    this.#localUntil = now + LOCAL_AFTER_FAILURE_MS;
    // A late lease still counts when it answers; once the store is asked again, another may go out.
    for (const bucket of this.#buckets.values()) bucket.leasingSince = null;
    if (this.#local) return;
    this.#local = true;
    this.#events.local(true);
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.leasingSince === null && bucket.tokens >= 0 && now - bucket.leasedAt > LEASE_TTL_MS)
        this.#buckets.delete(key);
    }
  }
}

const waitFor = (tokens: number, rate: number): number => Math.max(1, Math.ceil((tokens / rate) * 1000));
