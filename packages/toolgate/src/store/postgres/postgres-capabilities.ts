import type { RowLock, SqlCapabilities } from '../sql-database.ts';

const LOCKING_CLAUSES: Readonly<Record<RowLock, string>> = {
  update: ' FOR UPDATE',
  update_skip_locked: ' FOR UPDATE SKIP LOCKED',
  share: ' FOR SHARE',
};

/** PostgreSQL's answers to the capability questions of the database surface. */
export class PostgresCapabilities implements SqlCapabilities {
  readonly dialect = 'postgres' as const;
  readonly supportsDataModifyingCtes = true;
  readonly groupsCommits = false;
  readonly writesOneAtATime = false;
  readonly sharedByGateways = true;

  lockingClause(lock: RowLock): string {
    return LOCKING_CLAUSES[lock];
  }

  jsonArrayAgg(fields: string, orderBy: string): string {
    return `json_agg(json_build_object(${fields}) ORDER BY ${orderBy})`;
  }
}
