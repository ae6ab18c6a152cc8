import type { Logger } from 'pino';
import { ToolRegistry } from '../contract/tool-registry.ts';
import { EffectsLedger, effectsLedgerMigration } from '../external/effects-ledger.ts';
import { FaultInjector } from '../external/faults.ts';
import { Gateway } from '../gateway/gateway.ts';
import { createOperationsRuntime, type OperationsRuntime } from '../operations/operations-runtime.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';
import { runMigrations } from '../store/migrations.ts';
import { type DatabaseConfig, openDatabase } from '../store/open-database.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import { logAuditSink } from '../telemetry/audit.ts';
import { GatewayMetrics } from '../telemetry/metrics.ts';
import { type Clock, ShiftableClock } from './clock.ts';
import type { DemoPrincipal, DomainInstance, DomainModule } from './domain-module.ts';

export interface AppConfig extends DatabaseConfig {
  readonly logger: Logger;
  /** Insert the demo world on start (when absent). */
  readonly seed: boolean;
  /** How long operation records are kept (default 24 h). */
  readonly retentionSeconds?: number;
  /** Run the reconciler and retention loops in this process (default true). */
  readonly backgroundJobs?: boolean;
  readonly domains: readonly DomainModule[];
  readonly clock?: Clock;
  readonly processMetrics?: boolean;
  /** Lease, reconcile and purge timings (tests shorten them). */
  readonly operations?: Partial<OperationsTuning>;
}

/** Everything one gateway process serves, wired together; transports sit on top of it. */
export interface App {
  readonly db: SqlDatabase;
  readonly registry: ToolRegistry;
  readonly gateway: Gateway;
  readonly metrics: GatewayMetrics;
  readonly faults: FaultInjector;
  readonly ledger: EffectsLedger;
  readonly clock: Clock;
  readonly operations: OperationsRuntime;
  readonly domains: readonly DomainInstance[];
  readonly principals: readonly DemoPrincipal[];
  readonly logger: Logger;
  /** Fresh demo world: domain data, external systems, faults, ledger and operation records. */
  resetWorld(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_RETENTION_SECONDS = 24 * 60 * 60;

export async function createApp(config: AppConfig): Promise<App> {
  const { logger } = config;
  const db = await openDatabase(config);
  try {
    const clock = config.clock ?? new ShiftableClock();
    const retentionSeconds = config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    const registry = new ToolRegistry({ retentionSeconds });
    const faults = new FaultInjector();
    const ledger = new EffectsLedger(db);
    const metrics = new GatewayMetrics({ processMetrics: config.processMetrics ?? false });
    const operations = createOperationsRuntime({
      db,
      registry,
      logger,
      clock,
      retentionSeconds,
      tuning: config.operations,
      metrics,
    });
    await runMigrations(db, [
      ...operations.migrations,
      effectsLedgerMigration,
      ...config.domains.flatMap((d) => d.migrations),
    ]);
    const context = { db, faults, ledger, logger, clock };
    const domains = config.domains.map((module) => module.create(context));
    registry.register(...operations.tools, ...domains.flatMap((d) => d.tools));
    if (config.seed) for (const domain of domains) await domain.seed();
    const gateway = new Gateway({
      registry,
      idempotency: operations.idempotency,
      logger,
      metrics,
      audit: logAuditSink(logger),
    });
    if (config.backgroundJobs ?? true) operations.start();
    return {
      db,
      registry,
      gateway,
      metrics,
      faults,
      ledger,
      clock,
      operations,
      domains,
      principals: domains.flatMap((d) => d.principals),
      logger,
      async resetWorld() {
        faults.clear();
        for (const domain of domains) await domain.reset();
        await operations.reset();
        await ledger.clear();
        if (clock instanceof ShiftableClock) clock.reset();
        for (const domain of domains) await domain.seed();
      },
      async close() {
        await operations.stop();
        for (const domain of domains) await domain.close?.();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
