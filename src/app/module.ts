import type { Logger } from 'pino';
import type { Actor } from '../auth/principal.ts';
import type { TokenSubject } from '../auth/token-claims.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { ExceptionTargets, ModuleExceptions } from '../operations/policy-exceptions.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';
import type { Clock } from './clock.ts';

/** Background work a module asks the gateway to run; started with the gateway's own loops, stopped on close. */
export interface BackgroundWork {
  /** Runs `work` every `intervalMs`, never overlapping itself; a failure is logged and the loop goes on. */
  every(name: string, intervalMs: number, work: () => Promise<unknown>): void;
}

/** What the gateway gives every module: its database, a logger, the clock and a place for background work. */
export interface ModuleContext {
  readonly db: SqlDatabase;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly background: BackgroundWork;
  /** Exceptions people granted to the module's rules (see docs/exceptions.md). */
  readonly exceptions: ModuleExceptions;
}

/** A demo identity the dev setup mints tokens for; its subject owns demo data. */
export interface DemoPrincipal {
  /** Stable handle used in fixtures, scenarios and the printed token list. */
  readonly name: string;
  readonly subject: string;
  readonly tenant: string;
  readonly actor: Actor;
  readonly scopes: readonly string[];
  /** Group memberships its tokens carry (claim `groups`); policies grant by them. */
  readonly groups?: readonly string[];
  readonly description: string;
}

/** What the start-up banner offers a newcomer from a simulated module: whom to be, what to call, which ids. */
export interface DemoIntroduction {
  /** The demo principal (by name) to try first. */
  readonly principal: string;
  /** A first call worth making as that principal. */
  readonly firstCall?: { readonly tool: string; readonly arguments: Readonly<Record<string, string>> };
  /** A few demo ids worth knowing, one line each ("order of acme-customer-alice, editable: ord_..."). */
  readonly ids: readonly string[];
}

/**
 * Hooks of a module that brings a simulated world (demo data, world actions, demo principals). The test
 * API and `toolgate eval` use them; a module that calls real systems leaves them out.
 */
export interface SimulationHooks {
  readonly principals: readonly DemoPrincipal[];
  /** Inserts the deterministic demo world; does nothing when it is already there. */
  seed(): Promise<void>;
  /** Deletes this module's rows and its simulated systems' state, so `seed` can start afresh. */
  reset(): Promise<void>;
  /** Demo ids by role and state, for GET /test-api/fixtures. */
  fixtures(): Promise<Record<string, unknown>>;
  /** What the start-up banner shows a newcomer of this module's world. */
  introduction?(): DemoIntroduction;
  /**
   * A world action for POST /test-api/simulate (the warehouse locks an order, the carrier decides a
   * redirect). Returns null when the target is not one of this module's systems.
   */
  simulate?(
    target: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null>;
}

/** A module as one gateway process runs it. */
export interface ModuleInstance {
  readonly tools: readonly AnyToolDefinition[];
  readonly simulation?: SimulationHooks;
  /** Says which services exceptions may be granted for; without it the operator API finds none. */
  readonly exceptionTargets?: ExceptionTargets;
  /**
   * Puts the external systems this module calls back to a known state for evaluation: `toolgate eval`
   * calls it before every trial, after the gateway's own state was reset. Never called by `serve`. A
   * module that simulates its systems resets them in `simulation.reset` instead; `eval` warns about a
   * module that has neither, since its trials are not isolated.
   */
  reset?(): Promise<void>;
  /** Releases what the module holds (connections, timers it started itself). */
  close?(): Promise<void>;
}

/** A unit of tools with the tables and background work they need; the demo domains are modules too. */
export interface ToolgateModule {
  readonly name: string;
  /** Versioned schema changes the module's tables need; applied at start, in id order, once. */
  readonly migrations?: readonly Migration[];
  create(context: ModuleContext): ModuleInstance | Promise<ModuleInstance>;
}

/** Identity function that gives a module definition its type (completion and checks in the editor). */
export function defineModule(module: ToolgateModule): ToolgateModule {
  return module;
}

/** The claims a demo principal's tokens carry. */
export function demoTokenSubject(p: DemoPrincipal): TokenSubject {
  return { sub: p.subject, tenant: p.tenant, actor: p.actor, scopes: p.scopes, groups: p.groups ?? [] };
}
