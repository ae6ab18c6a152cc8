import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { Migration } from '../store/sql-database.ts';
import { activitySlotsMigration } from './activity-slots-migration.ts';
import { auditMigration } from './audit-migration.ts';
import { expiryIndexMigration } from './expiry-index-migration.ts';
import { openOperationIndexesMigration } from './open-operation-indexes-migration.ts';
import type { OperationStore } from './operation-store.ts';
import { operationsGetTool, type SensitiveFieldsOf } from './operations-get-tool.ts';
import { operationsMigration } from './operations-migration.ts';
import type { OperatorConfirmations } from './operator-confirmations.ts';
import { operatorConfirmationsMigration } from './operator-confirmations-migration.ts';
import { operatorQueryIndexesMigration } from './operator-query-indexes-migration.ts';
import { exceptionTargetsMigration, policyExceptionsMigration } from './policy-exceptions-migration.ts';

/** How long a settled operation answers for its key unless configured (published in write contracts). */
export const DEFAULT_RETENTION_SECONDS = 24 * 60 * 60;

/**
 * What every gateway adds to its modules: the operations, audit and exceptions tables, and
 * operations_get. The
 * serving runtime and the contract build (lint, export) take them from here, so both register the same.
 */
export const FRAMEWORK_MIGRATIONS: readonly Migration[] = [
  operationsMigration,
  auditMigration,
  operatorConfirmationsMigration,
  policyExceptionsMigration,
  exceptionTargetsMigration,
  operatorQueryIndexesMigration,
  activitySlotsMigration,
  openOperationIndexesMigration,
  expiryIndexMigration,
];

/**
 * `confirmations` settles a parked operation whose question expired when operations_get reads it;
 * `sensitiveFieldsOf` names the fields a served tool marks sensitive, withheld from what it shows.
 */
export function frameworkTools(
  store: OperationStore,
  confirmations?: OperatorConfirmations,
  sensitiveFieldsOf?: SensitiveFieldsOf,
): AnyToolDefinition[] {
  return [operationsGetTool(store, confirmations, sensitiveFieldsOf)];
}
