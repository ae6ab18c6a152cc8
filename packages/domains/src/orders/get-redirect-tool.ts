import type { SqlDatabase } from 'toolgate';
import { defineTool, outcome } from 'toolgate';
import { z } from 'zod';
import { orderIdSchema, redirectStatusSchema } from './order-contract-schemas.ts';
import { orderErrors } from './order-errors.ts';
import { findVisibleOrder } from './order-records.ts';
import { ORDER_NOT_FOUND } from './order-refusals.ts';
import type { CarrierRedirect } from './systems/carrier/carrier-records.ts';
import type { SimulatedCarrier } from './systems/carrier/simulated-carrier.ts';

const redirectViewSchema = z.strictObject({
  request_id: z.string().describe('The carrier request id, as shipments_request_redirect returned it.'),
  status: redirectStatusSchema,
  requested_at: z.string().describe('When the carrier received the request (ISO 8601).'),
  decided_at: z
    .string()
    .nullable()
    .describe('When the carrier accepted or declined it (ISO 8601); null while it is still submitted.'),
  completed_at: z
    .string()
    .nullable()
    .describe('When the parcel was delivered to the new address (ISO 8601); null until then.'),
  destination_country_code: z
    .string()
    .describe('ISO 3166-1 alpha-2 country of the requested address; the street is not repeated here.'),
  destination_postal_code: z
    .string()
    .describe('Postal code of the requested address; use it to tell requests apart with the customer.'),
});

const redirectsResultSchema = z.strictObject({
  order_id: z.string().describe('The order id, as requested.'),
  shipment_id: z
    .string()
    .nullable()
    .describe("The retailer's id of the parcel; null while the order has no parcel."),
  carrier: z
    .string()
    .nullable()
    .describe('The carrier that has the parcel; null while the order has no parcel.'),
  tracking_id: z
    .string()
    .nullable()
    .describe("The carrier's tracking number of the parcel; null while the order has no parcel."),
  redirects: z.array(redirectViewSchema).max(50).describe('As the carrier reports them, newest first.'),
});

/** shipments_get_redirect: the carrier-confirmed state of redirect requests for an order's parcel. */
export function getRedirectTool(db: SqlDatabase, carrier: SimulatedCarrier) {
  return defineTool({
    name: 'shipments_get_redirect',
    title: 'Check redirect requests with the carrier',
    description:
      "Asks the carrier for the redirect requests of an order's parcel and reports each as the carrier confirms " +
      'it: submitted (received, not decided yet), accepted (the carrier will redirect), declined, or completed ' +
      '(delivered to the new address). Use it after shipments_request_redirect, and tell the customer only what ' +
      'it shows: "requested" while submitted, never "redirected" before accepted or completed. Give request_id to ' +
      'see one request; omit it to list them all. It changes nothing: do not use it to ask for a redirect (use ' +
      'shipments_request_redirect). An order without a parcel answers with ' +
      'shipment_id null and no redirects (its address may still be changeable: see orders_get).',
    kind: 'read',
    version: '1.1.1',
    externalSystems: ['carrier'],
    input: z.strictObject({
      order_id: orderIdSchema,
      request_id: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9._:-]+$/)
        .optional()
        .describe('The request_id that shipments_request_redirect returned; omit to list every request.'),
    }),
    output: redirectsResultSchema,
    errors: [orderErrors.ORDER_NOT_FOUND, orderErrors.REDIRECT_NOT_FOUND],
    scopes: ['shipments:read'],
    timeoutMs: 5_000,
    examples: [
      {
        title: 'All redirect requests of an order',
        input: { order_id: 'ord_5f0c6a1e9b2d4c7a8e3f1b0d2c4a6e8f' },
      },
    ],
    handler: async (input, ctx) => {
      const order = await findVisibleOrder(db, ctx.principal, input.order_id);
      if (!order) {
        return outcome.rejected(ORDER_NOT_FOUND.code, ORDER_NOT_FOUND.message, {
          resolution: ORDER_NOT_FOUND.resolution,
        });
      }
      const { shipment } = order;
      if (!shipment) {
        return outcome.completed({
          order_id: order.id,
          shipment_id: null,
          carrier: null,
          tracking_id: null,
          redirects: [],
        });
      }
      let redirects: CarrierRedirect[];
      try {
        redirects = await carrier.listRedirects(shipment.trackingId, ctx.signal);
      } catch {
        return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The carrier did not answer; try again in a moment.');
      }
      if (input.request_id !== undefined) {
        redirects = redirects.filter((r) => r.request_id === input.request_id);
        if (redirects.length === 0) {
          return outcome.rejected('REDIRECT_NOT_FOUND', 'This order has no redirect request with that id.', {
            resolution: 'Omit request_id to list the requests the carrier holds for this order.',
          });
        }
      }
      return outcome.completed({
        order_id: order.id,
        shipment_id: shipment.id,
        carrier: shipment.carrier,
        tracking_id: shipment.trackingId,
        redirects: redirects.slice(0, 50).map(toView),
      });
    },
  });
}

function toView(redirect: CarrierRedirect): z.output<typeof redirectViewSchema> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    request_id: redirect.request_id,
    status: redirect.status,
    requested_at: new Date(redirect.requested_at).toISOString(),
    decided_at: iso(redirect.decided_at),
    completed_at: iso(redirect.completed_at),
    destination_country_code: redirect.country_code,
    destination_postal_code: redirect.postal_code,
  };
}
