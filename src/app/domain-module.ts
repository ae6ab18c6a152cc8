import type { Logger } from 'pino';
import type { Actor } from '../auth/principal.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { EffectsLedger } from '../external/effects-ledger.ts';
import type { FaultInjector } from '../external/faults.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';
import type { Clock } from './clock.ts';

/** What every domain is built over: one database, one fault injector, one effects ledger. */
export interface DomainContext {
  readonly db: SqlDatabase;
  readonly faults: FaultInjector;
  readonly ledger: EffectsLedger;
  readonly logger: Logger;
  readonly clock: Clock;
}

/** A demo identity the dev setup mints tokens for; its subject owns demo data. */
export interface DemoPrincipal {
  /** Stable handle used in fixtures, scenarios and the printed token list. */
  readonly name: string;
  readonly subject: string;
  readonly tenant: string;
  readonly actor: Actor;
  readonly scopes: readonly string[];
  readonly description: string;
}

export interface DomainInstance {
  readonly tools: readonly AnyToolDefinition[];
  readonly principals: readonly DemoPrincipal[];
  /** Inserts the deterministic demo world; does nothing when it is already there. */
  seed(): Promise<void>;
  /** Deletes this domain's rows and its external systems' state, so `seed` can start afresh. */
  reset(): Promise<void>;
  /** Demo ids by role and state, for GET /test-api/fixtures. */
  fixtures(): Promise<Record<string, unknown>>;
  /**
   * A world action for POST /test-api/simulate (the warehouse locks an order, the carrier decides a
   * redirect). Returns null when the target is not one of this domain's systems.
   */
  simulate?(
    target: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null>;
  /** Stops background work. */
  close?(): Promise<void>;
}

export interface DomainModule {
  readonly name: string;
  readonly migrations: readonly Migration[];
  create(context: DomainContext): DomainInstance;
}
