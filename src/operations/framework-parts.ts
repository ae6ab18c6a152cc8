import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { Migration } from '../store/sql-database.ts';
import { auditMigration } from './audit-migration.ts';
import type { OperationStore } from './operation-store.ts';
import { operationsGetTool } from './operations-get-tool.ts';
import { operationsMigration } from './operations-migration.ts';

/** How long a settled operation answers for its key unless configured (published in write contracts). */
export const DEFAULT_RETENTION_SECONDS = 24 * 60 * 60;

/**
 * What every gateway adds to its modules: the operations and audit tables, and operations_get. The
 * serving runtime and the contract build (lint, export) take them from here, so both register the same.
 */
export const FRAMEWORK_MIGRATIONS: readonly Migration[] = [operationsMigration, auditMigration];

export function frameworkTools(store: OperationStore): AnyToolDefinition[] {
  return [operationsGetTool(store)];
}
