import type { z } from 'zod';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { ExceptionDefinition } from './define-exception.ts';

/** What one exception is for: the declared target object of its kind (scalars only). */
export type ExceptionTarget = Readonly<Record<string, string | number | boolean>>;

/** An exception in force as a tool sees it: who granted it, for what, until when, and why. */
export interface ActiveException {
  readonly exception_id: string;
  readonly kind: string;
  readonly target: ExceptionTarget;
  readonly granted_by: string;
  readonly starts_at: string;
  readonly ends_at: string;
  readonly reason: string;
}

/** When an exception must hold: now unless the action happens later (a scheduled start, say). */
export interface ExceptionMoment {
  /** Epoch milliseconds the exception must cover (default: now). */
  readonly at?: number;
}

/**
 * The exceptions a tool's call may go ahead under (docs/exceptions.md): only kinds some module declared,
 * only in the caller's tenant, only granted by someone other than the caller.
 */
export interface ToolExceptions {
  /**
   * The exceptions of `kind` in force at `at` (default now) for exactly `target`, earliest grant first.
   * A target the kind's schema refuses names nothing an exception can have been granted for: none.
   * Throws on a kind no module declared (a programmer error).
   */
  active<T extends z.ZodObject>(
    kind: ExceptionDefinition<T> | string,
    target: z.input<T>,
    options?: ExceptionMoment,
  ): Promise<ActiveException[]>;
  /**
   * Goes ahead under `exception`: reads it again through `within` (pass the write's own transaction, so
   * a revoke that commits first refuses the write, and on PostgreSQL a later one waits for it), audits
   * its use (`exception_applied`, with the call's operation) and annotates the call's audit entry and
   * span (`exception_id`, `granted_by`). Null when it no longer applies: nothing audited then.
   */
  use(
    exception: ActiveException,
    options?: ExceptionMoment & { readonly within?: SqlExecutor },
  ): Promise<ActiveException | null>;
}
