import type { SqlDatabase } from 'toolgate';
import type { PostalAddress } from './postal-address.ts';
import {
  findOpenRedirect,
  findRedirectRequest,
  insertSendingRequest,
  type OpenRedirectRequest,
} from './redirect-records.ts';

export interface RedirectReservationRequest {
  readonly requestId: string;
  readonly orderId: string;
  readonly shipmentId: string;
  readonly tenant: string;
  readonly address: PostalAddress;
  readonly at: number;
}

export type RedirectReservation =
  | { readonly kind: 'reserved' }
  /** The request id already has a record (a reconciler fenced it, or it ran before). */
  | { readonly kind: 'exists' }
  /** Another request of the same parcel is in flight or undecided: nothing may be sent now. */
  | { readonly kind: 'blocked'; readonly open: OpenRedirectRequest };

/**
 * Decides atomically whether this request may go to the carrier: one insert, which the primary key
 * and the one-open-request-per-shipment index either accept or refuse, so two deliveries under
 * different keys can never both send a redirect for one parcel. When it is refused, says why; if
 * the blocking request settled in between, tries again.
 */
export async function reserveRedirectRequest(
  db: SqlDatabase,
  request: RedirectReservationRequest,
): Promise<RedirectReservation> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await insertSendingRequest(db, request)) return { kind: 'reserved' };
    if (await findRedirectRequest(db, request.requestId)) return { kind: 'exists' };
    const open = await findOpenRedirect(db, request.shipmentId);
    if (open) return { kind: 'blocked', open };
  }
  throw new Error(`shipment ${request.shipmentId} kept changing while a redirect request was being recorded`);
}
