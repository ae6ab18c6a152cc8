import type { Logger } from 'pino';
import type { Clock } from '../app/clock.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import type { IdempotencyLayer } from '../gateway/idempotency-layer.ts';
import { readOnlyGateway } from '../gateway/no-idempotency.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';

export interface OperationsRuntimeOptions {
  readonly db: SqlDatabase;
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly retentionSeconds: number;
}

/** Durable operations: the idempotency layer, operations_get, the reconciler and retention. */
export interface OperationsRuntime {
  readonly migrations: readonly Migration[];
  readonly idempotency: IdempotencyLayer;
  readonly tools: readonly AnyToolDefinition[];
  /** Starts the reconciler and retention loops. */
  start(): void;
  stop(): Promise<void>;
  /** Deletes every operation record (demo world reset). */
  reset(): Promise<void>;
}

export function createOperationsRuntime(_options: OperationsRuntimeOptions): OperationsRuntime {
  return {
    migrations: [],
    idempotency: readOnlyGateway,
    tools: [],
    start() {},
    async stop() {},
    async reset() {},
  };
}
