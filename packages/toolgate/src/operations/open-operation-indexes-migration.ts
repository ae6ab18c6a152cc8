import type { Migration } from '../store/sql-database.ts';
import { OPEN_SQL } from './operation-record.ts';

/**
 * The background scans' indexes hold open records only. `operations_due` (the reconciler's leases and
 * unknown outcomes, the review queue and the backlog counts) and `operations_awaiting` (questions
 * parked for an approver) held every record, so each write added a settled row to both and each
 * settlement moved it within them: a store of a million settled operations kept two indexes of a
 * million entries that no scan reads. Partial, they hold the few records still owed something; a write
 * pays one entry while its record is in progress, and a settled record leaves them.
 */
export const openOperationIndexesMigration: Migration = {
  id: '0009_open_operation_indexes',
  sql: `DROP INDEX operations_due;
  CREATE INDEX operations_due ON operations (status, next_check_at) WHERE ${OPEN_SQL};
  DROP INDEX operations_awaiting;
  CREATE INDEX operations_awaiting ON operations (expires_at) WHERE status = 'awaiting_confirmation'`,
};
