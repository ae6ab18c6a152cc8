import type { Logger } from 'pino';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { ModuleExceptions } from '../operations/policy-exceptions.ts';
import type { Migration, SqlDatabase } from '../store/sql-database.ts';
import type { Clock } from '../time/clock.ts';

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

/** A module as one gateway process runs it. */
export interface ModuleInstance {
  readonly tools: readonly AnyToolDefinition[];
  /**
   * The kinds of exception people may grant to this module's rules (`defineException`): the operator
   * API grants, lists and revokes them, each with its own `grantScope` (docs/exceptions.md).
   */
  readonly exceptions?: readonly ExceptionDefinition[];
  /**
   * Puts the external systems this module calls back to a known state for evaluation: `toolgate eval`
   * calls it before every trial, after the gateway's own state was reset. Never called by `serve`.
   * `eval` warns about a module that has no reset of its systems, since its trials are not isolated.
   */
  reset?(): Promise<void>;
  /** Releases what the module holds (connections, timers it started itself). */
  close?(): Promise<void>;
}

/** A unit of tools with the tables and background work they need; the reference domains are modules too. */
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
