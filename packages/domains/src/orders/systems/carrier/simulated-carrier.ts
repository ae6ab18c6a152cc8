import type { EffectsLedger, FaultInjector } from '@toolgate/simulation';
import { ExternalRejectedError, throughFaults } from '@toolgate/simulation';
import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { addressDigest, type PostalAddress } from '../postal-address.ts';
import { CARRIER_SYSTEM, type CarrierRedirect, selectRedirects, selectShipment } from './carrier-records.ts';

export interface RedirectRequest {
  /** The caller's operation id; the carrier deduplicates on it. */
  readonly requestId: string;
  readonly trackingId: string;
  readonly tenant: string;
  readonly address: PostalAddress;
}

/**
 * The simulated carrier as the gateway reaches it. A redirect is only ever received here; the carrier
 * decides later (a world action). Requests are idempotent by request id, every received request is
 * recorded in the ledger in the same transaction, and armed faults apply to every call.
 */
export class SimulatedCarrier {
  constructor(
    private readonly db: SqlDatabase,
    private readonly faults: FaultInjector,
    private readonly ledger: EffectsLedger,
    private readonly now: () => number,
  ) {}

  /** Receives a redirect request under the carrier's own rules; answers it as recorded. */
  submitRedirect(request: RedirectRequest, signal: AbortSignal): Promise<CarrierRedirect> {
    return throughFaults(
      this.faults,
      CARRIER_SYSTEM,
      { action: 'submit_redirect', attributes: { tracking_id: request.trackingId } },
      signal,
      () => this.db.transaction((tx) => this.#receive(tx, request)),
    );
  }

  /** The carrier's record of one request, or null when it never arrived. */
  findRedirect(requestId: string, signal: AbortSignal): Promise<CarrierRedirect | null> {
    return throughFaults(
      this.faults,
      CARRIER_SYSTEM,
      { action: 'get_redirect', attributes: { request_id: requestId } },
      signal,
      async () => (await selectRedirects(this.db, 'request_id', requestId))[0] ?? null,
    );
  }

  /** Every redirect request the carrier holds for a parcel, newest first. */
  listRedirects(trackingId: string, signal: AbortSignal): Promise<CarrierRedirect[]> {
    return throughFaults(
      this.faults,
      CARRIER_SYSTEM,
      { action: 'get_redirect', attributes: { tracking_id: trackingId } },
      signal,
      () => selectRedirects(this.db, 'tracking_id', trackingId),
    );
  }

  async #receive(tx: SqlExecutor, request: RedirectRequest): Promise<CarrierRedirect> {
    const earlier = (await selectRedirects(tx, 'request_id', request.requestId))[0];
    if (earlier) return earlier;
    const shipment = await selectShipment(tx, 'tracking_id', request.trackingId);
    if (!shipment || shipment.tenant !== request.tenant)
      refuse('UNKNOWN_SHIPMENT', 'no parcel with this tracking id');
    if (shipment.status === 'label_created') {
      refuse('PARCEL_NOT_YET_WITH_CARRIER', 'the parcel has not been picked up yet');
    }
    if (shipment.status === 'delivered') refuse('SHIPMENT_DELIVERED', 'the parcel was already delivered');
    if (shipment.redirect_eligible === 0) {
      refuse('REDIRECT_NOT_ELIGIBLE', 'this service level does not allow redirects');
    }
    if (shipment.country_code !== request.address.country_code) {
      refuse('REDIRECT_NOT_ELIGIBLE', 'redirects must stay within the destination country');
    }
    const at = this.now();
    const digest = addressDigest(request.address);
    const inserted = await tx.query(
      `INSERT INTO ext_carrier_redirects (request_id, tracking_id, shipment_id, tenant, status, address_digest,
         country_code, postal_code, requested_at, decided_at, completed_at)
       VALUES (?, ?, ?, ?, 'submitted', ?, ?, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING RETURNING request_id`,
      [
        request.requestId,
        request.trackingId,
        shipment.shipment_id,
        request.tenant,
        digest,
        request.address.country_code,
        request.address.postal_code,
        at,
      ],
    );
    if (inserted.length === 0) {
      const same = (await selectRedirects(tx, 'request_id', request.requestId))[0];
      if (same) return same;
      refuse('REDIRECT_ALREADY_REQUESTED', 'the parcel already has an open redirect request');
    }
    await this.ledger.record(
      {
        system: CARRIER_SYSTEM,
        action: 'redirect_requested',
        ref: shipment.shipment_id,
        tenant: request.tenant,
        requestId: request.requestId,
        data: {
          address_digest: digest,
          country_code: request.address.country_code,
          postal_code: request.address.postal_code,
        },
      },
      tx,
    );
    return (await selectRedirects(tx, 'request_id', request.requestId))[0]!;
  }
}

function refuse(code: string, message: string): never {
  throw new ExternalRejectedError(CARRIER_SYSTEM, code, message);
}
