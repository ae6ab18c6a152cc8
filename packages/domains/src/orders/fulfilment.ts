import { z } from 'zod';

/**
 * Where an order is in fulfilment. The retailer owns the address until the warehouse starts the
 * handoff; once the carrier has the parcel only the carrier can change where it goes.
 */
export const FULFILMENT_STATES = [
  'pending',
  'address_change_allowed',
  'locked_for_warehouse',
  'label_created',
  'handed_to_carrier',
  'delivered',
  'cancelled',
] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];
export const fulfilmentStateSchema = z
  .enum(FULFILMENT_STATES)
  .describe(
    'pending / address_change_allowed: the retailer can still change the address; locked_for_warehouse / ' +
      'label_created: the warehouse handoff has started; handed_to_carrier: the carrier has the parcel; ' +
      'delivered; cancelled.',
  );

/** States in which the retailer may still replace the delivery address. */
export const EDITABLE_STATES: readonly FulfilmentState[] = ['pending', 'address_change_allowed'];

export const ADDRESS_CHANGE_TOOLS = [
  'orders_change_unshipped_address',
  'shipments_request_redirect',
] as const;

/** Which tool (if any) applies to an address change right now, and why. */
export interface AddressChangeRoute {
  readonly tool: (typeof ADDRESS_CHANGE_TOOLS)[number] | null;
  readonly reason: string;
}

/** What the routing rule looks at: the state and any operation on the order still in flight. */
export interface RouteFacts {
  readonly state: FulfilmentState;
  /** An address change committed here but not yet confirmed by the warehouse. */
  readonly pendingChangeId: string | null;
  /** A redirect request whose outcome is unknown (sending) or that the carrier has not decided (sent). */
  readonly openRedirect: { readonly requestId: string; readonly status: 'sending' | 'sent' } | null;
}

/** The routing rule orders_get publishes; the tools enforce the same rule on their own. */
export function addressChangeRoute(order: RouteFacts): AddressChangeRoute {
  const { state, pendingChangeId, openRedirect } = order;
  if (pendingChangeId !== null && (EDITABLE_STATES.includes(state) || state === 'handed_to_carrier')) {
    return {
      tool: null,
      reason: `An address change (operation ${pendingChangeId}) is waiting for the warehouse to confirm it; check it with operations_get before changing the address again.`,
    };
  }
  switch (state) {
    case 'pending':
    case 'address_change_allowed':
      return {
        tool: 'orders_change_unshipped_address',
        reason: 'The order has not been handed to the warehouse yet; the retailer can replace the address.',
      };
    case 'locked_for_warehouse':
    case 'label_created':
      return {
        tool: null,
        reason:
          'The warehouse has started the handoff, so the retailer can no longer change the address and the carrier does not have the parcel yet. Once the order is handed_to_carrier a redirect can be requested.',
      };
    case 'handed_to_carrier':
      if (openRedirect?.status === 'sending') {
        return {
          tool: null,
          reason: `A redirect request (operation ${openRedirect.requestId}) has not been confirmed by the carrier; poll operations_get with it until it settles before asking for another.`,
        };
      }
      if (openRedirect) {
        return {
          tool: null,
          reason: `The carrier has not yet decided a redirect request (request ${openRedirect.requestId}); check it with shipments_get_redirect. Another can be requested only if the carrier declines it.`,
        };
      }
      return {
        tool: 'shipments_request_redirect',
        reason:
          'The carrier has the parcel; only the carrier can redirect it, on request by a support agent.',
      };
    case 'delivered':
      return { tool: null, reason: 'The order has been delivered; its address can no longer change.' };
    case 'cancelled':
      return { tool: null, reason: 'The order is cancelled; there is nothing to deliver.' };
  }
}
