import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The statuses of operations that wait: for settlement, or (parked) for an approver. */
export const BACKLOG_STATUSES = ['outcome_unknown', 'needs_review', 'awaiting_confirmation'] as const;

/** Operations waiting, per status: how many, and since when the oldest waits. */
export interface BacklogReading {
  readonly status: (typeof BACKLOG_STATUSES)[number];
  readonly count: number;
  /** Epoch ms of the oldest record's creation, null when there is none. */
  readonly oldestCreatedAt: number | null;
}

/** How long a scrape waits for the store's backlog reading before it reports the database not ready. */
export const SCRAPE_DATABASE_DEADLINE_MS = 1_000;

/**
 * Prometheus metrics with bounded labels only: tool, contract version, status, code.
 * Never identifiers, keys, addresses or messages.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly calls = new Counter({
    name: 'toolgate_tool_calls_total',
    help: 'Tool calls by outcome status.',
    labelNames: ['tool', 'contract_version', 'status'] as const,
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'toolgate_tool_errors_total',
    help: 'Tool calls that answered with an error code, by code.',
    labelNames: ['tool', 'contract_version', 'code'] as const,
    registers: [this.registry],
  });
  readonly replays = new Counter({
    name: 'toolgate_tool_idempotent_replay_total',
    help: 'Deliveries answered with a stored outcome.',
    labelNames: ['tool', 'contract_version'] as const,
    registers: [this.registry],
  });
  readonly confirmations = new Counter({
    name: 'toolgate_confirmations_total',
    help: "People's confirmations of tool calls: via client (elicitation), operator (an approver in the console) or agent (relayed), by outcome (asked, accepted, declined, cancelled, expired, mismatch, unavailable, relayed).",
    labelNames: ['tool', 'via', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly policyDenials = new Counter({
    name: 'toolgate_policy_denials_total',
    help: 'Calls a policy denied (POLICY_DENIED), by tool and the denying policy id (default-deny when no policy permits).',
    labelNames: ['tool', 'reason'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'toolgate_tool_duration_seconds',
    help: 'Tool call duration through the whole pipeline.',
    labelNames: ['tool', 'contract_version', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly resultBytes = new Histogram({
    name: 'toolgate_tool_result_bytes',
    help: 'Size of the JSON envelope returned to the agent.',
    labelNames: ['tool', 'contract_version'] as const,
    buckets: [256, 1024, 4096, 16384, 65536, 262144],
    registers: [this.registry],
  });

  readonly unauthenticated = new Counter({
    name: 'toolgate_http_unauthenticated_total',
    help: 'Requests refused with 401 before any tool code ran, by whether a token was present.',
    labelNames: ['token'] as const,
    registers: [this.registry],
  });
  readonly reconciliations = new Counter({
    name: 'toolgate_operation_reconciliations_total',
    help: 'Reconciliation attempts on operations with unknown outcomes, by what they found.',
    labelNames: ['tool', 'result'] as const,
    registers: [this.registry],
  });
  readonly abandoned = new Counter({
    name: 'toolgate_operations_abandoned_total',
    help: 'Operations whose executing delivery stopped before recording an outcome (lease expired).',
    labelNames: ['tool'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'toolgate_rate_limited_total',
    help: 'Tool calls refused by the per-principal rate or in-flight limit, by tool and principal class (actor).',
    labelNames: ['tool', 'actor'] as const,
    registers: [this.registry],
  });
  readonly fleetLimitsLocal = new Gauge({
    name: 'toolgate_fleet_limits_local',
    help: "1 while this gateway decides the per-principal rate and reply-byte limits alone (in-process) because the fleet's shared store failed or answered late; 0 otherwise.",
    registers: [this.registry],
  });
  readonly fleetLimitFailures = new Counter({
    name: 'toolgate_fleet_limit_store_failures_total',
    help: "Leases, write-slot claims and renewals of the fleet's shared limits that the store failed or answered late.",
    registers: [this.registry],
  });
  readonly reconcilerLastPass = new Gauge({
    name: 'toolgate_reconciler_last_pass_timestamp_seconds',
    help: "Unix time at which this process's reconciler last finished a pass (0 when it never has, e.g. background jobs off).",
    registers: [this.registry],
  });

  readonly httpRequests = new Counter({
    name: 'toolgate_http_requests_total',
    help: 'HTTP requests by route (a fixed path or route-family prefix, else other) and status code.',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });

  #readBacklog: (() => Promise<readonly BacklogReading[]>) | null = null;
  #backlog: Promise<readonly BacklogReading[] | null> | null = null;
  readonly databaseReady = new Gauge({
    name: 'toolgate_database_ready',
    help: "1 when the database answered this scrape's backlog reading in time, 0 when it failed or was late.",
    registers: [this.registry],
    collect: async (): Promise<void> => {
      this.databaseReady.set((await this.#scrapeBacklog()) === null ? 0 : 1);
    },
  });
  readonly awaiting = new Gauge({
    name: 'toolgate_operations_awaiting',
    help: 'Operations awaiting settlement (outcome_unknown, needs_review) or an approver (awaiting_confirmation), all tenants, at scrape time.',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      const readings = await this.#scrapeBacklog();
      // Without a reading the gauges report nothing rather than a stale or made-up value.
      if (readings === null) {
        this.awaiting.reset();
        return;
      }
      for (const reading of readings) {
        this.awaiting.set({ status: reading.status }, reading.count);
      }
    },
  });
  readonly awaitingOldestAge = new Gauge({
    name: 'toolgate_operations_awaiting_oldest_age_seconds',
    help: 'Age of the oldest operation awaiting settlement or an approver, by status (0 when none waits).',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      const now = Date.now();
      const readings = await this.#scrapeBacklog();
      if (readings === null) {
        this.awaitingOldestAge.reset();
        return;
      }
      for (const reading of readings) {
        const age = reading.oldestCreatedAt === null ? 0 : Math.max(0, now - reading.oldestCreatedAt) / 1000;
        this.awaitingOldestAge.set({ status: reading.status }, age);
      }
    },
  });

  readonly releaseInfo = new Gauge({
    name: 'toolgate_release_info',
    help: 'The release record this gateway was started pinned to (serve --release): 1, labelled with its id.',
    labelNames: ['release_id'] as const,
    registers: [this.registry],
  });

  readonly #scrapeDeadlineMs: number;

  constructor(options: { processMetrics?: boolean; scrapeDatabaseDeadlineMs?: number } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.#scrapeDeadlineMs = options.scrapeDatabaseDeadlineMs ?? SCRAPE_DATABASE_DEADLINE_MS;
  }

  /** Where the backlog gauges read from at scrape time (the operations store). */
  watchBacklog(read: () => Promise<readonly BacklogReading[]>): void {
    this.#readBacklog = read;
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    try {
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    } finally {
      this.#backlog = null;
    }
  }

  /** Records that the reconciler finished a pass now (wall-clock time, as Prometheus compares it). */
  reconcilerPassed(): void {
    this.reconcilerLastPass.set(Date.now() / 1000);
  }

  /**
   * One store query per scrape, shared by the backlog gauges and the readiness gauge; null when the
   * database failed or did not answer within the deadline, so a store outage is reported by a
   * successful scrape instead of failing it.
   */
  #scrapeBacklog(): Promise<readonly BacklogReading[] | null> {
    const read = this.#readBacklog;
    if (!read) {
      return Promise.resolve(BACKLOG_STATUSES.map((status) => ({ status, count: 0, oldestCreatedAt: null })));
    }
    this.#backlog ??= withDeadline(read(), this.#scrapeDeadlineMs);
    return this.#backlog;
  }
}

/** The reading, or null when it failed or took longer than `ms`. */
async function withDeadline<T>(reading: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([reading.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
