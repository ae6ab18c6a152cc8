import { outcome, type ToolOutcome } from 'toolgate';
import type { Refusal } from './order-refusals.ts';

/**
 * The outcomes the address change and the redirect share: a refusal, an operation that never reached
 * the external system, a system that provably did not take it, and one whose answer did not come.
 */
export type PartnerSystem = 'warehouse' | 'carrier';

const WHAT: Record<PartnerSystem, string> = { warehouse: 'address change', carrier: 'redirect request' };

export function refusalOutcome<R>(refusal: Refusal): ToolOutcome<R> {
  return outcome.rejected(refusal.code, refusal.message, { resolution: refusal.resolution });
}

/** A reconciler found no trace of the operation and fenced it: nothing happened anywhere. */
export function notStartedOutcome<R>(system: PartnerSystem): ToolOutcome<R> {
  return outcome.rejected(
    'OPERATION_NOT_STARTED',
    `The ${WHAT[system]} never reached the ${system}; nothing changed.`,
    {
      resolution:
        'Read the order again with orders_get and, if it still applies, start again with a new idempotency_key.',
    },
  );
}

/** The first attempt found the system down: it received nothing, so the same key may be retried. */
export function unavailableOutcome<R>(system: PartnerSystem): ToolOutcome<R> {
  return outcome.failed('DEPENDENCY_UNAVAILABLE', `The ${system} was unavailable; nothing changed.`, {
    resolution: 'Try again in a moment with the same idempotency_key.',
  });
}

/** No answer came: the effect may or may not have happened; only asking by operation id will tell. */
export function silentOutcome<R>(system: PartnerSystem): ToolOutcome<R> {
  return outcome.unknown(
    'OUTCOME_UNKNOWN',
    `The ${system} did not confirm the ${WHAT[system]} in time; it may or may not have been taken.`,
    {
      resolution:
        'Do not start a new one and do not tell the customer it is done. Poll operations_get with operation_id, or retry with the same idempotency_key.',
    },
  );
}
