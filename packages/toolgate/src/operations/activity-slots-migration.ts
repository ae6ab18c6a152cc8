import type { Migration } from '../store/sql-database.ts';

/**
 * The operator activity's call counts per tenant and slot of 150 s, kept once a slot has closed
 * (operator/activity-history.ts): a chart reads its window's slots instead of counting every audit
 * entry in it again. A row is written once, with every status's count (`{}` for a quiet slot), and
 * rows older than the longest window are deleted as new ones are written. And the audit entries that
 * move an operation into or out of the review backlog, by tenant and time, so the backlog chart reads
 * those of its window instead of every entry of it (a partial index: the few entries it holds are all
 * that writes pay for).
 */
export const activitySlotsMigration: Migration = {
  id: '0008_activity_slots',
  sql: `CREATE TABLE activity_slots (
    tenant TEXT NOT NULL,
    slot_start BIGINT NOT NULL,
    counts TEXT NOT NULL,
    PRIMARY KEY (tenant, slot_start)
  );
  CREATE INDEX audit_log_backlog_moves ON audit_log (tenant, at)
    WHERE status IN ('outcome_unknown', 'needs_review')
       OR action IN ('operations_reconcile', 'operations_review_resolve')`,
};
