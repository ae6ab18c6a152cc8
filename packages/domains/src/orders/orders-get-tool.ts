import type { SqlDatabase } from 'toolgate';
import { defineTool, outcome } from 'toolgate';
import { z } from 'zod';
import { ADDRESS_CHANGE_TOOLS, addressChangeRoute, fulfilmentStateSchema } from './fulfilment.ts';
import { orderIdSchema } from './order-contract-schemas.ts';
import { orderErrors } from './order-errors.ts';
import { findVisibleOrder } from './order-records.ts';
import { ORDER_NOT_FOUND } from './order-refusals.ts';
import { postalAddressViewSchema } from './postal-address.ts';
import type { OpenRedirectRequest } from './redirect-records.ts';

const PENDING_REDIRECT_STATUSES = ['unconfirmed', 'submitted', 'accepted'] as const;

const orderViewSchema = z.strictObject({
  order_id: z
    .string()
    .describe('The order id, as requested; use it in every follow-up call about this order.'),
  version: z
    .number()
    .int()
    .min(1)
    .describe(
      'Bumped on every change; pass it as expected_order_version to orders_change_unshipped_address.',
    ),
  fulfilment_state: fulfilmentStateSchema,
  delivery_address: postalAddressViewSchema.describe(
    'Where the order will be delivered, as the retailer has it.',
  ),
  items: z
    .array(
      z.strictObject({
        sku: z.string().describe("The shop's stock-keeping unit code of the product."),
        name: z.string().describe('Product name as the shop lists it; use it when talking to the customer.'),
        quantity: z
          .number()
          .int()
          .min(1)
          .describe('Number of units of this product in the order (at least 1).'),
        ships_only_to: z
          .array(z.string())
          .nullable()
          .describe('Countries this item may be shipped to; null when it may go anywhere the shop delivers.'),
      }),
    )
    .max(100)
    .describe('What the order contains, one entry per product; ships_only_to limits where it may go.'),
  shipment: z
    .strictObject({
      shipment_id: z.string().describe("The retailer's id of the parcel."),
      carrier: z.string().describe('The carrier that has or will get the parcel; name it to the customer.'),
      tracking_id: z
        .string()
        .describe("The carrier's tracking number; the customer can follow the parcel with it."),
    })
    .nullable()
    .describe('The parcel once a label exists; null before that.'),
  address_change: z
    .strictObject({
      tool: z
        .enum(ADDRESS_CHANGE_TOOLS)
        .nullable()
        .describe('The tool that can change where this order goes right now; null when none can.'),
      reason: z.string().describe('Why that tool (or none) applies; relay it when no tool applies.'),
    })
    .describe('Routing for an address change request, decided from the current state.'),
  pending_address_change: z
    .strictObject({
      operation_id: z
        .string()
        .describe(
          'The operation that made the change; operations_get shows whether the warehouse confirmed it.',
        ),
    })
    .nullable()
    .describe('An address change committed by the retailer but not yet confirmed by the warehouse.'),
  pending_redirect: z
    .strictObject({
      operation_id: z
        .string()
        .describe(
          'The shipments_request_redirect operation, which is also its request_id at the carrier; poll it with operations_get.',
        ),
      status: z
        .enum(PENDING_REDIRECT_STATUSES)
        .describe(
          'unconfirmed: sent, but whether the carrier received it is not established yet (poll operations_get with ' +
            'operation_id; do not request another); submitted: the carrier has it and has not decided; accepted: the ' +
            'carrier will redirect the parcel (shipments_get_redirect shows its decisions).',
        ),
    })
    .nullable()
    .describe(
      'A redirect request of the parcel that blocks a new one: its outcome is unknown, or the carrier has not declined it. Null when there is none.',
    ),
});

/** How orders_get names a blocking redirect request: unconfirmed while its outcome is unknown. */
function pendingRedirectView(open: OpenRedirectRequest) {
  const status =
    open.status === 'sending' ? 'unconfirmed' : open.carrierStatus === 'accepted' ? 'accepted' : 'submitted';
  return { operation_id: open.requestId, status } as const;
}

/** orders_get: the order as the caller may see it, and which tool applies to an address change now. */
export function ordersGetTool(db: SqlDatabase) {
  return defineTool({
    name: 'orders_get',
    title: 'Read an order',
    description:
      'Returns one order as the caller may see it: version, fulfilment state, delivery address, items, the parcel ' +
      'if one exists, and address_change.tool: which tool can change where the order goes right now ' +
      '(orders_change_unshipped_address before the warehouse handoff, shipments_request_redirect once the carrier ' +
      'has the parcel, or null with the reason). Call it before any address change and again whenever a change ' +
      'answers ORDER_STATE_CHANGED; pass its version as expected_order_version. pending_address_change and ' +
      'pending_redirect name an operation still in flight (poll it with operations_get before starting another). ' +
      'It changes nothing. Do not use it to ' +
      'learn what the carrier decided about a redirect; use shipments_get_redirect for that. Customers see ' +
      'only their own orders; an order that is not theirs answers ORDER_NOT_FOUND, exactly like one that does not exist.',
    kind: 'read',
    version: '1.2.1',
    input: z.strictObject({ order_id: orderIdSchema }),
    output: orderViewSchema,
    errors: [orderErrors.ORDER_NOT_FOUND],
    scopes: ['orders:read'],
    // Lets a balancer or WAF route, log or limit lookups by order without reading the body.
    headers: { order_id: 'Order-Id' },
    timeoutMs: 5_000,
    examples: [{ title: 'Read an order', input: { order_id: 'ord_5f0c6a1e9b2d4c7a8e3f1b0d2c4a6e8f' } }],
    handler: async (input, ctx) => {
      const order = await findVisibleOrder(db, ctx.principal, input.order_id);
      if (!order) {
        return outcome.rejected(ORDER_NOT_FOUND.code, ORDER_NOT_FOUND.message, {
          resolution: ORDER_NOT_FOUND.resolution,
        });
      }
      return outcome.completed({
        order_id: order.id,
        version: order.version,
        fulfilment_state: order.state,
        delivery_address: order.deliveryAddress,
        items: order.items.map((item) => ({
          sku: item.sku,
          name: item.name,
          quantity: item.quantity,
          ships_only_to: item.shipsOnlyTo === null ? null : [...item.shipsOnlyTo],
        })),
        shipment: order.shipment
          ? {
              shipment_id: order.shipment.id,
              carrier: order.shipment.carrier,
              tracking_id: order.shipment.trackingId,
            }
          : null,
        address_change: addressChangeRoute(order),
        pending_address_change: order.pendingChangeId ? { operation_id: order.pendingChangeId } : null,
        pending_redirect: order.openRedirect ? pendingRedirectView(order.openRedirect) : null,
      });
    },
  });
}
