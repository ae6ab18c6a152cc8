import type { Logger } from 'pino';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';
import type { GatewayTracing } from '../telemetry/call-tracing.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { Clock } from '../time/clock.ts';
import { AuditLog } from './audit-log.ts';
import { BackgroundLoop } from './background-loop.ts';
import { DurableIdempotency } from './durable-idempotency.ts';
import { FRAMEWORK_MIGRATIONS, frameworkTools } from './framework-parts.ts';
import type { IdempotencyLayer } from './keyed-store.ts';
import { OperationStore } from './operation-store.ts';
import { DEFAULT_OPERATIONS_TUNING, type OperationsTuning } from './operations-tuning.ts';
import { OperatorConfirmations } from './operator-confirmations.ts';
import { PolicyExceptions } from './policy-exceptions.ts';
import { ReconcileQueue } from './reconcile-queue.ts';
import { Reconciler } from './reconciler.ts';
import { purgeExpiredOperations } from './retention.ts';
import { ReviewQueue } from './review-queue.ts';
import { SettleSignal } from './settle-signal.ts';

export interface OperationsRuntimeOptions {
  readonly db: SqlDatabase;
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly retentionSeconds: number;
  /** Shorter leases and reconcile back-off for tests; production uses the defaults. */
  readonly tuning?: Partial<OperationsTuning>;
  /** Audit entries older than this are purged with expired operations (default 90 days). */
  readonly auditRetentionSeconds?: number;
  /** Spans for reconciler attempts (off by default). */
  readonly tracing?: GatewayTracing;
  /** Where reconciliation counts go (the gateway's metrics). */
  readonly metrics?: GatewayMetrics;
  /** How long a question parked for an approver waits (default 24 h). */
  readonly confirmationTtlSeconds?: number;
  /** The version of the policy set this process decides by, stamped on every audit entry. */
  readonly policyVersion?: string;
}

/** Durable operations: the idempotency layer, operations_get, the reconciler and retention. */
export interface OperationsRuntime {
  readonly migrations: readonly Migration[];
  readonly idempotency: IdempotencyLayer;
  /** The same layer, for the execution of a parked operation an approver confirmed. */
  readonly durable: DurableIdempotency;
  /** Questions parked for approvers (the `operator` confirmation fallback). */
  readonly confirmations: OperatorConfirmations;
  readonly tools: readonly AnyToolDefinition[];
  readonly store: OperationStore;
  readonly reconciler: Reconciler;
  readonly reviews: ReviewQueue;
  /** The durable audit trail (calls, reconciliation steps, operator decisions). */
  readonly audit: AuditLog;
  /** How long audit entries are kept, in seconds. */
  readonly auditRetentionSeconds: number;
  /** Exceptions to rules granted by people, of the kinds the modules declare, with their audit. */
  readonly exceptions: PolicyExceptions;
  /** Starts the reconciler and retention loops. */
  start(): void;
  stop(): Promise<void>;
  /**
   * Deletes every operation record with its reviews, audit entries, parked confirmations and granted
   * exceptions: for test and evaluation harnesses that start each run from an empty gateway.
   */
  clearRecords(): Promise<void>;
  /** Deletes expired settled records now; returns how many. */
  purge(): Promise<number>;
}

/** A question parked for an approver waits 24 hours unless configured otherwise. */
export const DEFAULT_CONFIRMATION_TTL_SECONDS = 24 * 60 * 60;

/** Audit entries are kept 90 days unless configured otherwise. */
export const DEFAULT_AUDIT_RETENTION_SECONDS = 90 * 24 * 60 * 60;

export function createOperationsRuntime(options: OperationsRuntimeOptions): OperationsRuntime {
  const { db, registry, logger, clock, retentionSeconds } = options;
  const tuning: OperationsTuning = { ...DEFAULT_OPERATIONS_TUNING, ...options.tuning };
  const audit = new AuditLog(
    db,
    logger,
    options.policyVersion ? { policy_version: options.policyVersion } : {},
  );
  const auditRetentionSeconds = options.auditRetentionSeconds ?? DEFAULT_AUDIT_RETENTION_SECONDS;
  const store = new OperationStore(db);
  const exceptions = new PolicyExceptions(db, clock, audit);
  const confirmations = new OperatorConfirmations({
    db,
    clock,
    catalog: registry.catalog(),
    audit,
    retentionSeconds,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const reconciler = new Reconciler({
    store,
    queue: new ReconcileQueue(db),
    registry,
    clock,
    tuning,
    retentionSeconds,
    logger,
    audit,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
  });
  // A pass that filled its batch likely left due work behind: run the next one straight away.
  const reconcileLoop: BackgroundLoop = new BackgroundLoop(
    'reconcile',
    tuning.reconcileIntervalMs,
    async () => {
      // Questions nobody answered in time are settled with the reconciler's pass.
      await confirmations.expireDue(clock.now(), tuning.reconcileBatch);
      const pass = await reconciler.runOnce();
      if (pass.settled + pass.deferred + pass.escalated >= tuning.reconcileBatch) reconcileLoop.wake();
    },
    logger,
  );
  const purge = async () => {
    await audit.purge(clock.now() - auditRetentionSeconds * 1000);
    const purged = await purgeExpiredOperations(db, clock.now());
    await confirmations.purgeOrphans();
    return purged;
  };
  const purgeLoop = new BackgroundLoop('purge', tuning.purgeIntervalMs, purge, logger);
  const idempotency = new DurableIdempotency({
    store,
    registry,
    clock,
    tuning,
    retentionSeconds,
    settleSignal: new SettleSignal(),
    wakeReconciler: () => reconcileLoop.wake(),
    confirmations,
    confirmationTtlSeconds: options.confirmationTtlSeconds ?? DEFAULT_CONFIRMATION_TTL_SECONDS,
  });
  return {
    migrations: FRAMEWORK_MIGRATIONS,
    idempotency,
    durable: idempotency,
    confirmations,
    tools: frameworkTools(
      store,
      confirmations,
      (tool, version) => registry.get(tool, version)?.definition.sensitiveFields,
    ),
    store,
    reconciler,
    reviews: new ReviewQueue(db, registry.catalog(), audit),
    audit,
    auditRetentionSeconds,
    exceptions,
    start() {
      reconcileLoop.start();
      purgeLoop.start();
    },
    async stop() {
      await Promise.all([reconcileLoop.stop(), purgeLoop.stop()]);
    },
    async clearRecords() {
      await db.execute('DELETE FROM operations');
      await db.execute('DELETE FROM operation_reviews');
      await db.execute('DELETE FROM audit_log');
      await db.execute('DELETE FROM operator_confirmations');
      await exceptions.reset();
    },
    purge,
  };
}
