import type { z } from 'zod';
import type { OperationSnapshot, ReconcileVerdict } from '../contract/define-tool.ts';
import type { ToolOutcome } from '../contract/outcome.ts';
import type { RejectionMapping } from './backend-failure.ts';
import type { HttpBackend } from './http-backend.ts';

/** What the service's status answer means for the operation. */
export type StatusDecision<R> =
  /** Settled: the effect is known (completed, rejected, ...). */
  | { outcome: ToolOutcome<R> }
  /** Not settled yet: the reconciler asks again later; the text is the note. */
  | { pending: string }
  /** The answer needs a human: the operation goes to review; the text is the note. */
  | { review: string };

/** How a reconcile hook asks the service what became of an operation. */
export type StatusLookup<S extends z.ZodType, R> = {
  /** The status resource for an operation id (toolgate ids are `op_` + base32: URL-safe as they are). */
  readonly path: (operationId: string) => string;
  /** The schema a 2xx body must match. */
  readonly response: S;
  readonly decide: (body: z.output<S>) => StatusDecision<R>;
} /** A 404 leaves the operation unknown (the default): the service may simply not have processed it yet. */ & (
  | { readonly notFound?: 'unknown' }
  /**
   * Only when the service fences ids: an id it answers 404 for can never be applied later. The tool then
   * settles the operation with its own outcome (typically a rejection with a code it declares).
   */
  | { readonly notFound: 'never_applied'; readonly onNeverApplied: () => ToolOutcome<R> }
);

/** What a lookup needs from its caller; the reconcile hook's context satisfies it. */
export interface LookupContext {
  readonly signal: AbortSignal;
  readonly deadline?: number;
}

// Mapped only so a 404 comes back as a refusal the lookup can tell apart; never shown to an agent.
const NOT_FOUND: RejectionMapping = {
  code: 'STATUS_NOT_FOUND',
  message: 'The service does not know this operation.',
};

/**
 * Asks the service for an operation's status (a GET carrying the operation id in the idempotency header,
 * retried within budget) and turns the answer into a reconcile verdict. Settles only on the service's
 * word: a failure to ask leaves the operation unknown, and an answer breaking the schema goes to review.
 */
export async function lookupOperationStatus<S extends z.ZodType, R>(
  backend: Pick<HttpBackend, 'call'>,
  operation: Pick<OperationSnapshot, 'id'>,
  ctx: LookupContext,
  spec: StatusLookup<S, R>,
): Promise<ReconcileVerdict<R>> {
  const result = await backend.call(
    { signal: ctx.signal, deadline: ctx.deadline, operation: { id: operation.id } },
    {
      method: 'GET',
      path: spec.path(operation.id),
      response: spec.response,
      rejections: (status) => (status === 404 ? NOT_FOUND : null),
    },
  );
  switch (result.kind) {
    case 'ok': {
      const decision = spec.decide(result.body);
      if ('outcome' in decision) return { settled: true, outcome: decision.outcome };
      if ('pending' in decision) return { settled: false, note: decision.pending };
      return { settled: false, note: decision.review, escalate: true };
    }
    case 'rejected':
      if (spec.notFound === 'never_applied') return { settled: true, outcome: spec.onNeverApplied() };
      return {
        settled: false,
        note: 'the service does not know this operation (404); it may not have arrived yet',
      };
    case 'contract_violation':
      return {
        settled: false,
        note: `the status answer breaks its schema: ${result.problems.join('; ')}`,
        escalate: true,
      };
    case 'unexpected_status':
      return { settled: false, note: `the status query was answered ${result.status}` };
    case 'unavailable':
    case 'unknown':
      return { settled: false, note: `the status query failed: ${result.reason}` };
  }
}
