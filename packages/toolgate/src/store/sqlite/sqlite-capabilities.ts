import type { RowLock, SqlCapabilities } from '../sql-database.ts';

/**
 * SQLite's answers to the capability questions of the database surface. A class without the driver,
 * so that a database that opens SQLite only on its first statement answers them before it opens.
 */
export class SqliteCapabilities implements SqlCapabilities {
  readonly dialect = 'sqlite' as const;
  readonly supportsDataModifyingCtes = false;
  readonly groupsCommits = true;
  readonly writesOneAtATime = true;
  readonly sharedByGateways = false;

  lockingClause(_lock: RowLock): string {
    return '';
  }

  jsonArrayAgg(fields: string, orderBy: string): string {
    return `json_group_array(json_object(${fields}) ORDER BY ${orderBy})`;
  }
}
