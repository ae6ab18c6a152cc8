import {
  type HttpBackend,
  type LookupContext,
  type OperationSnapshot,
  outcome,
  type ReconcileVerdict,
  type ToolOutcome,
} from 'toolgate';
import type { z } from 'zod';
import { billingErrors } from './billing-errors.ts';
import { appliedOperationResponse, operationStatusPath } from './billing-wire.ts';

/**
 * The reconcile hook of a keyed billing write: the service keeps every applied key and fences the ones
 * it is asked about, so its answer is final both ways: applied (settle with the stored answer) or
 * never applied (and now never will be).
 */
export function reconcileKeyedWrite<S extends z.ZodType, R>(
  backend: HttpBackend,
  kind: 'credit_note' | 'refund_request',
  response: S,
  settle: (applied: z.output<S>) => ToolOutcome<R>,
  neverApplied: string,
): (operation: OperationSnapshot, ctx: LookupContext) => Promise<ReconcileVerdict<R>> {
  return (operation, ctx) =>
    backend.lookup(operation, ctx, {
      path: operationStatusPath(operation.tenant),
      response: appliedOperationResponse(kind, response),
      // zod cannot name the output of a generic object's member; it is the `response` schema's output.
      decide: (applied) => ({ outcome: settle((applied as { response: z.output<S> }).response) }),
      notFound: 'never_applied',
      onNeverApplied: () => outcome.rejected(billingErrors.BILLING_REQUEST_NOT_APPLIED.code, neverApplied),
    });
}
