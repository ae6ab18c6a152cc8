import type { OperationSnapshot } from '../contract/define-tool.ts';
import type { OutcomeEnvelope, OutcomeStatus } from '../contract/envelope.ts';
import type { OperationMode } from '../contract/fingerprint.ts';

export const OPERATION_STATUSES = [
  'in_progress',
  'completed',
  'submitted',
  'rejected',
  'requires_confirmation',
  'failed',
  'outcome_unknown',
  'needs_review',
  'awaiting_confirmation',
] as const;
/**
 * Where a durable operation stands; `needs_review` waits for an operator to say what happened,
 * `awaiting_confirmation` for an approver to confirm it before it runs (nothing was executed).
 */
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** Settled for good: purged once expired, replayed as stored. `failed` changed nothing and may be retried. */
export const TERMINAL_STATUSES: readonly OperationStatus[] = [
  'completed',
  'submitted',
  'rejected',
  'requires_confirmation',
  'failed',
];

/** The SQL condition for a record settled for good: retention deletes these and nothing else. */
export const SETTLED_FOR_GOOD_SQL = `status IN (${TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** Not settled for good: still running, owed an outcome, or waiting for a person. */
export const OPEN_STATUSES: readonly OperationStatus[] = OPERATION_STATUSES.filter(
  (status) => !TERMINAL_STATUSES.includes(status),
);

/**
 * The SQL condition for an open record, the predicate of the partial index `operations_due`. SQLite
 * uses a partial index only for a query that states its predicate as written, so every query walking
 * that index carries this term beside its own status condition.
 */
export const OPEN_SQL = `status IN (${OPEN_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** One durable operation: the record of one logical side effect, keyed by (tenant, subject, key). */
export interface OperationRecord {
  readonly id: string;
  readonly tenant: string;
  readonly subject: string;
  readonly key: string;
  readonly tool: string;
  readonly contractVersion: string;
  readonly fingerprint: string;
  readonly contentHash: string | null;
  readonly mode: OperationMode;
  readonly status: OperationStatus;
  /** The outcome as the agent saw it (or will see it on replay); null while in progress. */
  readonly envelope: OutcomeEnvelope | null;
  /** Deliveries that executed the operation (a `failed` record may be executed again). */
  readonly attempts: number;
  readonly leaseExpiresAt: number | null;
  readonly nextCheckAt: number | null;
  readonly reconcileAttempts: number;
  readonly reconcileNote: string | null;
  readonly checkpoints: Record<string, unknown>;
  readonly externalRefs: Record<string, string>;
  readonly correlationId: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
}

export interface OperationRow {
  [column: string]: unknown;
  id: string;
  tenant: string;
  subject: string;
  idem_key: string;
  tool: string;
  contract_version: string;
  fingerprint: string;
  content_hash: string | null;
  mode: string;
  status: string;
  envelope: string | null;
  attempts: number;
  lease_expires_at: number | null;
  next_check_at: number | null;
  reconcile_attempts: number;
  reconcile_note: string | null;
  checkpoints: string;
  external_refs: string;
  correlation_id: string;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export function recordFromRow(row: OperationRow): OperationRecord {
  return {
    id: row.id,
    tenant: row.tenant,
    subject: row.subject,
    key: row.idem_key,
    tool: row.tool,
    contractVersion: row.contract_version,
    fingerprint: row.fingerprint,
    contentHash: row.content_hash,
    mode: row.mode as OperationMode,
    status: row.status as OperationStatus,
    envelope: row.envelope === null ? null : (JSON.parse(row.envelope) as OutcomeEnvelope),
    attempts: Number(row.attempts),
    leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
    nextCheckAt: row.next_check_at === null ? null : Number(row.next_check_at),
    reconcileAttempts: Number(row.reconcile_attempts),
    reconcileNote: row.reconcile_note,
    checkpoints: JSON.parse(row.checkpoints) as Record<string, unknown>,
    externalRefs: JSON.parse(row.external_refs) as Record<string, string>,
    correlationId: row.correlation_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
  };
}

/** The record status an outcome settles to (the outcome's own status, for every status a delivery stores). */
export function statusOfOutcome(status: OutcomeStatus): OperationStatus {
  switch (status) {
    case 'completed':
    case 'submitted':
    case 'rejected':
    case 'requires_confirmation':
    case 'failed':
    case 'outcome_unknown':
      return status;
    case 'validated':
    case 'in_progress':
      throw new Error(`an executed operation cannot settle as ${status}`);
  }
}

/** What a tool's reconcile hook is shown. */
export function snapshotOf(record: OperationRecord): OperationSnapshot {
  return {
    id: record.id,
    tenant: record.tenant,
    subject: record.subject,
    tool: record.tool,
    key: record.key,
    attempts: record.reconcileAttempts,
    checkpoints: record.checkpoints,
    externalRefs: record.externalRefs,
    createdAt: new Date(record.createdAt),
  };
}
