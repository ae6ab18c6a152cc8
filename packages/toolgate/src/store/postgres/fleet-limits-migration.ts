import type { Migration } from '../sql-database.ts';

/**
 * The shared state of the per-principal limits of every gateway on one PostgreSQL database (applied
 * only where the fleet limiter runs). `fleet_limit_buckets` holds one token bucket per principal and
 * limit (its rate, a tool class's own rate, its reply bytes): the tokens left and when they were last
 * refilled, in epoch milliseconds of the database's clock, plus what the last lease granted.
 * `fleet_write_claims` holds the write slots each gateway holds for a principal, until `expires_at`:
 * a gateway that stops renewing them (it crashed) holds none once they expire.
 */
export const fleetLimitsMigration: Migration = {
  id: '0007_fleet_limits',
  sql: `CREATE TABLE fleet_limit_buckets (
    bucket TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    refilled_at DOUBLE PRECISION NOT NULL,
    granted DOUBLE PRECISION NOT NULL
  );
  CREATE TABLE fleet_write_claims (
    principal TEXT NOT NULL,
    gateway TEXT NOT NULL,
    held INTEGER NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (principal, gateway)
  )`,
};
