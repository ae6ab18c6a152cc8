import type { z } from 'zod';
import { type Clock, systemClock } from '../app/clock.ts';
import type { Principal } from '../auth/principal.ts';
import type { ExceptionTarget, PolicyException, PolicyExceptions } from '../operations/policy-exceptions.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { CallAnnotations } from '../telemetry/call-annotations.ts';
import type { ExceptionDefinition } from './define-exception.ts';
import { ExceptionCatalog } from './exception-catalog.ts';

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

/** What binds the exceptions to one call: who calls, which tool, its operation, its annotations. */
export interface ExceptionCall {
  readonly principal: Principal;
  readonly tool: string;
  readonly operationId: string | null;
  readonly annotate: (facts: CallAnnotations) => void;
}

/** What a gateway keeps of granted exceptions: the store, the declared kinds and the clock they run on. */
export interface GatewayExceptions {
  readonly store: PolicyExceptions | null;
  readonly catalog: ExceptionCatalog;
  readonly clock: Clock;
}

/** A gateway whose app declares no exception kinds (a bare gateway in a test): none in force, ever. */
export const NO_EXCEPTIONS: GatewayExceptions = {
  store: null,
  catalog: new ExceptionCatalog([]),
  clock: systemClock,
};

const asActive = (e: PolicyException): ActiveException => ({
  exception_id: e.exception_id,
  kind: e.kind,
  target: e.target,
  granted_by: e.granted_by,
  starts_at: e.starts_at,
  ends_at: e.ends_at,
  reason: e.reason,
});

/** The `ctx.exceptions` of one call. */
export function toolExceptions(
  { store, catalog, clock }: GatewayExceptions,
  call: ExceptionCall,
): ToolExceptions {
  const definitionOf = (kind: ExceptionDefinition | string): ExceptionDefinition => {
    const name = typeof kind === 'string' ? kind : kind.kind;
    const definition = catalog.get(name);
    if (!definition || !store) {
      throw new Error(`ctx.exceptions: exception kind ${name} is not declared by any module of this gateway`);
    }
    return definition;
  };
  return {
    async active(kind, target, options) {
      const definition = definitionOf(kind as ExceptionDefinition | string);
      if (!store) return [];
      const parsed = definition.target.safeParse(target);
      if (!parsed.success) return [];
      const found = await store.active({
        tenant: call.principal.tenant,
        kind: definition.kind,
        target: parsed.data as ExceptionTarget,
        at: options?.at ?? clock.now(),
      });
      return found.filter((e) => e.granted_by !== call.principal.subject).map(asActive);
    },
    async use(exception, options) {
      const definition = definitionOf(exception.kind);
      if (!store) return null;
      const run = async (within: SqlExecutor) =>
        store.confirmUse(within, {
          exceptionId: exception.exception_id,
          query: {
            tenant: call.principal.tenant,
            kind: definition.kind,
            target: exception.target,
            at: options?.at ?? clock.now(),
          },
          operationId: call.operationId,
          principal: call.principal,
          tool: call.tool,
        });
      const applied = options?.within ? await run(options.within) : await store.transaction(run);
      if (!applied) return null;
      call.annotate({ exception_id: applied.exception_id, granted_by: applied.granted_by });
      return asActive(applied);
    },
  };
}
