import type { Principal, SqlDatabase } from 'toolgate';
import { insertPendingChange } from './address-change-records.ts';
import { destinationProblem } from './destination-rules.ts';
import { EDITABLE_STATES } from './fulfilment.ts';
import { findVisibleOrder, type OrderRecord } from './order-records.ts';
import { addressChangeRefusal, ORDER_NOT_FOUND, type Refusal } from './order-refusals.ts';
import type { PostalAddress } from './postal-address.ts';

export interface ReservationRequest {
  readonly principal: Principal;
  readonly orderId: string;
  readonly expectedVersion: number;
  readonly address: PostalAddress;
  readonly operationId: string;
  readonly at: number;
}

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'refused'; refusal: Refusal }
  /** The operation id already has a record (a reconciler fenced it, or it ran before). */
  | { kind: 'exists' };

/** Lost a race with a concurrent writer between the checks and the guarded update. */
class ConcurrentOrderChange extends Error {}

/**
 * The decision, in one transaction: ownership, state, version, no other pending change, destination
 * rules, then the guarded update that marks the change pending (UPDATE ... WHERE version = ? AND state
 * IN (...) AND no pending change). The guard makes the decision hold even on PostgreSQL, where another
 * transaction may commit between our read and our write; then we read again and explain why.
 */
export async function reservePendingChange(
  db: SqlDatabase,
  request: ReservationRequest,
): Promise<Reservation> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await db.transaction(async (tx): Promise<Reservation> => {
        const order = await findVisibleOrder(tx, request.principal, request.orderId);
        const refusal = refusalFor(order, request);
        if (refusal) return { kind: 'refused', refusal };
        if (!(await insertPendingChange(tx, { ...request, tenant: order!.tenant })))
          return { kind: 'exists' };
        const marks = EDITABLE_STATES.map(() => '?').join(', ');
        const changed = await tx.execute(
          `UPDATE orders SET pending_change_id = ?, updated_at = ?
           WHERE id = ? AND version = ? AND state IN (${marks}) AND pending_change_id IS NULL`,
          [request.operationId, request.at, request.orderId, request.expectedVersion, ...EDITABLE_STATES],
        );
        if (changed !== 1) throw new ConcurrentOrderChange();
        return { kind: 'reserved' };
      });
    } catch (error) {
      if (!(error instanceof ConcurrentOrderChange)) throw error;
    }
  }
  throw new Error(`order ${request.orderId} kept changing while an address change was being decided`);
}

function refusalFor(order: OrderRecord | null, request: ReservationRequest): Refusal | null {
  if (!order) return ORDER_NOT_FOUND;
  const state = addressChangeRefusal(order, request.expectedVersion, request.operationId);
  if (state) return state;
  return destinationProblem(order, request.address.country_code);
}
