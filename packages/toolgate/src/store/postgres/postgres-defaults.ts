/** How long one PostgreSQL statement may run by default; a default the CLI reads without loading `pg`. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** Pipelined connections for plain reads, on top of the pool (read-lanes.ts); 0 turns them off. */
export const DEFAULT_READ_LANES = 1;
