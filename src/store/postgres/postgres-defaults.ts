/** How long one PostgreSQL statement may run by default; a default the CLI reads without loading `pg`. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
