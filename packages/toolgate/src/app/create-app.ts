import type { Logger } from 'pino';
import { ToolRegistry } from '../contract/tool-registry.ts';
import { ExceptionCatalog } from '../exceptions/exception-catalog.ts';
import { Gateway } from '../gateway/gateway.ts';
import { PrincipalRateLimiter, type RateLimitSettings } from '../gateway/rate-limit-layer.ts';
import { BackgroundLoop } from '../operations/background-loop.ts';
import { DEFAULT_RETENTION_SECONDS } from '../operations/framework-parts.ts';
import { createOperationsRuntime, type OperationsRuntime } from '../operations/operations-runtime.ts';
import { DEFAULT_OPERATIONS_TUNING, type OperationsTuning } from '../operations/operations-tuning.ts';
import { readSettlementBacklog } from '../operations/settlement-backlog.ts';
import { loadPolicyEngine } from '../policy/load-policy-engine.ts';
import { runMigrations } from '../store/migrations.ts';
import { type DatabaseConfig, openDatabase } from '../store/open-database.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import { OperationTasks } from '../tasks/operation-tasks.ts';
import type { GatewayTracing } from '../telemetry/call-tracing.ts';
import { GatewayMetrics } from '../telemetry/metrics.ts';
import { type Clock, systemClock } from '../time/clock.ts';
import { FLEET_LIMIT_MIGRATIONS, holdsFleetLimits, sharedLimitsOn } from './fleet-limits.ts';
import type { BackgroundWork, ModuleInstance, ToolgateModule } from './module.ts';

export interface AppConfig extends DatabaseConfig {
  readonly logger: Logger;
  /** How long operation records are kept (default 24 h). */
  readonly retentionSeconds?: number;
  /** Run the reconciler, retention and module background loops in this process (default true). */
  readonly backgroundJobs?: boolean;
  readonly modules: readonly ToolgateModule[];
  /** The time modules and operation records see (default: the system clock). */
  readonly clock?: Clock;
  readonly processMetrics?: boolean;
  /** OpenTelemetry spans for calls and reconciler attempts (see tracingFromEnvironment); off when absent. */
  readonly tracing?: GatewayTracing;
  /** How long audit entries are kept (default 90 days). */
  readonly auditRetentionSeconds?: number;
  /** How long a call parked for an approver (the `operator` confirmation fallback) waits (default 24 h). */
  readonly operatorConfirmationTtlSeconds?: number;
  /** Lease, reconcile and purge timings (tests shorten them). */
  readonly operations?: Partial<OperationsTuning>;
  /** Per-principal rate and in-flight limits (none when absent). */
  readonly limits?: RateLimitSettings;
  /** How long tasks/result waits for a task still working (default 10 s). */
  readonly taskResultWaitMs?: number;
  /** Tasks per tasks/list page (default 50). */
  readonly tasksPageSize?: number;
  /**
   * A directory of Cedar policies (`*.cedar` and one `*.cedarschema`) every call is decided by
   * (default deny); absent: no policy layer. A set that does not load refuses to start the app.
   */
  readonly policyDir?: string;
  /** The longest loading the policy set may take (PolicySetTimeout past it); unbounded when absent. */
  readonly policyLoadTimeoutMs?: number;
  /** The release the caller checked this gateway against (`serve --release`); shown on /readyz and /metrics. */
  readonly releaseId?: string;
}

/** Everything one gateway process serves, wired together; transports sit on top of it. */
export interface App {
  readonly db: SqlDatabase;
  readonly registry: ToolRegistry;
  readonly gateway: Gateway;
  readonly metrics: GatewayMetrics;
  readonly clock: Clock;
  readonly operations: OperationsRuntime;
  /** MCP tasks over the durable operations (task id = operation id). */
  readonly tasks: OperationTasks;
  readonly modules: readonly ModuleInstance[];
  /** The exception kinds the modules declare: the only ones the operator API grants. */
  readonly exceptionKinds: ExceptionCatalog;
  /** The release this gateway serves (`serve --release`), null when it is pinned to none. */
  readonly releaseId: string | null;
  readonly logger: Logger;
  close(): Promise<void>;
}

export { DEFAULT_RETENTION_SECONDS };

/**
 * Opens the database, runs every module's migrations, creates the modules and registers their tools
 * (plus operations_get). A module or tool that breaks a rule fails here, before anything is served.
 */
export async function createApp(config: AppConfig): Promise<App> {
  const { logger } = config;
  const policy =
    config.policyDir === undefined
      ? undefined
      : loadPolicyEngine(
          config.policyDir,
          config.policyLoadTimeoutMs === undefined ? {} : { timeoutMs: config.policyLoadTimeoutMs },
        );
  if (policy) logger.info({ dir: config.policyDir, policy_version: policy.version }, 'policy set loaded');
  const db = await openDatabase(config);
  const loops: BackgroundLoop[] = [];
  const modules: ModuleInstance[] = [];
  const closeModules = async () => {
    for (const module of modules) await module.close?.();
  };
  try {
    const clock = config.clock ?? systemClock;
    const retentionSeconds = config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    const registry = new ToolRegistry({ retentionSeconds });
    const metrics = new GatewayMetrics({ processMetrics: config.processMetrics ?? false });
    if (config.releaseId) metrics.releaseInfo.set({ release_id: config.releaseId }, 1);
    const operations = createOperationsRuntime({
      db,
      registry,
      logger,
      clock,
      retentionSeconds,
      tuning: config.operations,
      metrics,
      ...(policy ? { policyVersion: policy.version } : {}),
      ...(config.tracing ? { tracing: config.tracing } : {}),
      ...(config.auditRetentionSeconds ? { auditRetentionSeconds: config.auditRetentionSeconds } : {}),
      ...(config.operatorConfirmationTtlSeconds
        ? { confirmationTtlSeconds: config.operatorConfirmationTtlSeconds }
        : {}),
    });
    const fleetLimits = holdsFleetLimits(db, config.limits);
    await runMigrations(db, [
      ...operations.migrations,
      ...(fleetLimits ? FLEET_LIMIT_MIGRATIONS : []),
      ...config.modules.flatMap((m) => m.migrations ?? []),
    ]);
    metrics.watchBacklog(() => readSettlementBacklog(db));
    // The store's own upkeep (on PostgreSQL, first-statistics.ts), beside the modules' background work.
    for (const job of db.upkeep?.((message, error) => logger.warn({ err: error }, message)) ?? []) {
      loops.push(new BackgroundLoop(job.name, job.intervalMs, () => job.run(), logger));
    }
    const background: BackgroundWork = {
      every(name, intervalMs, work) {
        loops.push(new BackgroundLoop(name, intervalMs, work, logger));
      },
    };
    for (const module of config.modules) {
      modules.push(
        await module.create({
          db,
          logger: logger.child({ module: module.name }),
          clock,
          background,
          exceptions: operations.exceptions,
        }),
      );
    }
    registry.register(...operations.tools, ...modules.flatMap((m) => m.tools));
    const exceptionKinds = new ExceptionCatalog(modules.flatMap((m) => m.exceptions ?? []));
    for (const { definition } of registry.all()) {
      for (const { exception } of definition.exceptions ?? []) {
        if (exceptionKinds.get(exception.kind) !== exception) {
          throw new Error(
            `tool ${definition.name} honours exception kind ${exception.kind}, which no module of this gateway declares`,
          );
        }
      }
    }
    const limits =
      config.limits &&
      new PrincipalRateLimiter(
        config.limits,
        undefined,
        fleetLimits ? sharedLimitsOn(db, metrics, logger) : undefined,
      );
    const gateway = new Gateway({
      registry,
      idempotency: operations.idempotency,
      logger,
      metrics,
      audit: operations.audit,
      exceptions: { store: operations.exceptions, catalog: exceptionKinds, clock },
      ...(config.tracing ? { tracing: config.tracing } : {}),
      limits,
      ...(policy ? { policy } : {}),
    });
    if (config.backgroundJobs ?? true) {
      operations.start();
      for (const loop of loops) loop.start();
    }
    const tasks = new OperationTasks({
      store: operations.store,
      logger,
      timing: {
        ttlMs: retentionSeconds * 1000,
        pollIntervalMs:
          config.operations?.reconcileIntervalMs ?? DEFAULT_OPERATIONS_TUNING.reconcileIntervalMs,
      },
      ...(config.taskResultWaitMs === undefined ? {} : { resultWaitMs: config.taskResultWaitMs }),
      ...(config.tasksPageSize === undefined ? {} : { pageSize: config.tasksPageSize }),
    });
    return {
      db,
      registry,
      gateway,
      metrics,
      clock,
      operations,
      tasks,
      modules,
      exceptionKinds,
      releaseId: config.releaseId ?? null,
      logger,
      async close() {
        limits?.close();
        await Promise.all([operations.stop(), ...loops.map((loop) => loop.stop())]);
        await closeModules();
        await db.close();
      },
    };
  } catch (error) {
    await closeModules().catch(() => undefined);
    await db.close();
    throw error;
  }
}
