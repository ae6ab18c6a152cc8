import type { Migration } from '../store/sql-database.ts';
import { SETTLED_FOR_GOOD_SQL } from './operation-record.ts';

/**
 * The retention purge's index holds the records it may delete only. `operations_expiry` held every
 * record by expiry, and the purge walks it from the oldest, keeping what is still owed an outcome or a
 * person's answer whatever its age: each of its statements read past every such record kept so far,
 * each a row lookup to learn its status, so a statement deleting a few rows cost more the further the
 * purge went. Partial to records settled for good, it holds exactly the purge's candidates, and a write
 * adds its entry once, when it settles, instead of adding one when reserved and moving it on settling.
 * Statements that use it state `SETTLED_FOR_GOOD_SQL` as written (SQLite matches a partial index's
 * predicate by its text).
 */
export const expiryIndexMigration: Migration = {
  id: '0010_settled_expiry_index',
  sql: `DROP INDEX operations_expiry;
  CREATE INDEX operations_expiry ON operations (expires_at) WHERE ${SETTLED_FOR_GOOD_SQL}`,
};
