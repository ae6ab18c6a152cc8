import type { Client, Tool } from '@modelcontextprotocol/client';
import type { Effect, EffectFilter, FaultSpec } from '@toolgate/simulation';
import type { Principal, SqlRow, ToolKind } from 'toolgate';
import type { Person } from './scripted-person.ts';

/** Demo principals and demo ids by domain, as GET /test-api/fixtures returns them. */
export interface Fixtures {
  readonly principals: Record<string, Principal & { readonly name: string }>;
  readonly [domain: string]: unknown;
}

/**
 * The world a scenario runs in: a gateway with its simulated external systems. The harness only
 * talks to the gateway through MCP clients; everything else here is the test API's reach
 * (reset, fixtures, faults, world actions, the effects ledger) plus read access to domain tables.
 */
export interface EvalWorld {
  /** Fresh demo world: domain data, external systems, faults, ledger and operation records. */
  reset(): Promise<void>;
  fixtures(): Promise<Fixtures>;
  /**
   * An MCP client connected to the gateway as this principal; questions the gateway asks its user
   * (elicitation) go to `person` until the next reset, and are dismissed when there is none.
   */
  connect(principal: Principal, person?: Person): Promise<Client>;
  armFault(spec: FaultSpec): Promise<void>;
  /** Faults armed at real services (through the backend kit) that no request met this trial, described. */
  unappliedFaults?(): string[];
  simulate(target: string, action: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  shiftClock(ms: number): Promise<void>;
  /**
   * Until the next reset, this principal's calls of one tool class are limited to `perSecond`, its
   * bucket spent now (the gateway's own per-principal limiter answers `RATE_LIMITED`).
   */
  limitRate(principal: Principal, kind: ToolKind, perSecond: number): Promise<void>;
  effects(filter?: EffectFilter): Promise<Effect[]>;
  /** Every tool the gateway serves, as tools/list would show a caller holding every scope. */
  servedTools?(): readonly Tool[];
  query(sql: string, params: readonly unknown[]): Promise<SqlRow[]>;
  /** World time (the gateway's clock) in epoch milliseconds. */
  now(): number;
  close(): Promise<void>;
}
