import type { Logger } from 'pino';
import type { RateLimitSettings, SharedLimits } from '../gateway/rate-limit-layer.ts';
import { fleetLimitsMigration } from '../store/postgres/fleet-limits-migration.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import { PostgresFleetLimitStore } from './fleet-limit-store.ts';

/** Whether `limits` hold for the fleet on `db`: asked for (the default) and the database is shared by gateways. */
export function holdsFleetLimits(db: SqlDatabase, limits: RateLimitSettings | undefined): boolean {
  return limits !== undefined && (limits.fleet ?? true) && db.sharedByGateways;
}

/** The tables of the fleet's limits, for a gateway that holds them. */
export const FLEET_LIMIT_MIGRATIONS: readonly Migration[] = [fleetLimitsMigration];

/**
 * The shared store of the fleet's limits on `db`, with the metrics and the warning a gateway gives when
 * it decides its limits alone because the store failed or answered late.
 */
export function sharedLimitsOn(db: SqlDatabase, metrics: GatewayMetrics, logger: Logger): SharedLimits {
  return {
    store: new PostgresFleetLimitStore(db),
    events: {
      failed(error) {
        metrics.fleetLimitFailures.inc();
        if (!isStoreUnavailable(error))
          logger.warn({ err: error }, 'fleet limit store failed or answered late');
      },
      local(on) {
        metrics.fleetLimitsLocal.set(on ? 1 : 0);
        if (on) {
          logger.warn(
            'fleet limits: the shared store failed or answered late; this gateway limits its principals alone (per process) until it answers',
          );
        } else logger.info('fleet limits: the shared store answers again; the limits hold for the fleet');
      },
    },
  };
}
