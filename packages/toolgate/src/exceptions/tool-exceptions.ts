import type { Principal } from '../auth/principal.ts';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { ActiveException, ExceptionTarget, ToolExceptions } from '../contract/handler-exceptions.ts';
import type { PolicyException, PolicyExceptions } from '../operations/policy-exceptions.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { CallAnnotations } from '../telemetry/call-annotations.ts';
import { type Clock, systemClock } from '../time/clock.ts';
import { ExceptionCatalog } from './exception-catalog.ts';

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
