import type { SqlExecutor } from 'toolgate';
import type { PolicyResourceHook } from '../policy-hooks.ts';
import { findVisibleOrder } from './order-records.ts';

/**
 * The order a call acts on, as its policies see it: `Order::"<id>"` with its tenant, owner and
 * fulfilment state. Only an order the caller may see resolves (another tenant's or, for a customer,
 * another customer's is null, like a missing one), so the tool answers its own not-found.
 */
export function orderResource(db: SqlExecutor): PolicyResourceHook {
  return async (input, { principal }) => {
    const orderId = input.order_id;
    if (typeof orderId !== 'string') return null;
    const order = await findVisibleOrder(db, principal, orderId);
    if (!order) return null;
    return {
      type: 'Order',
      id: order.id,
      attributes: { tenant: order.tenant, owner: order.customerSubject, state: order.state },
    };
  };
}
