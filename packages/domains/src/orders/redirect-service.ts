import { ExternalRejectedError, ExternalUnavailableError } from '@toolgate/simulation';
import type { Logger } from 'pino';
import type { Clock, Principal, ReconcileVerdict, ReviewDecisionView, SqlDatabase, Warning } from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import { validateNewAddress } from './address-validation-step.ts';
import {
  notStartedOutcome,
  refusalOutcome,
  silentOutcome,
  unavailableOutcome,
} from './operation-outcomes.ts';
import { emptyRedirectResult, type RedirectRequestResult } from './order-contract-schemas.ts';
import { findVisibleOrder, loadOrder } from './order-records.ts';
import { ORDER_NOT_FOUND } from './order-refusals.ts';
import type { PostalAddress } from './postal-address.ts';
import {
  fenceUnsentRequest,
  findRedirectRequest,
  forgetUnsentRequest,
  settleRedirectRequest,
  settleReviewedRequest,
} from './redirect-records.ts';
import { carrierRefusal, openRedirectRefusal, redirectRefusal } from './redirect-refusals.ts';
import { reserveRedirectRequest } from './redirect-reservation.ts';
import type { AddressValidationService } from './systems/address-validation/address-validation-service.ts';
import type { CarrierRedirect } from './systems/carrier/carrier-records.ts';
import type { SimulatedCarrier } from './systems/carrier/simulated-carrier.ts';

export interface RedirectDeps {
  readonly db: SqlDatabase;
  readonly carrier: SimulatedCarrier;
  readonly validator: AddressValidationService;
  readonly clock: Clock;
  /** How long to wait for the carrier before answering outcome_unknown. */
  readonly carrierWaitMs: number;
}

type Outcome = ToolOutcome<RedirectRequestResult>;

/**
 * Asks the carrier to redirect a parcel it already has. The retailer owns nothing here: the carrier
 * receives the request (idempotently, by the operation id as request id) and decides later, so the
 * best outcome is `submitted`, never `completed`.
 */
export class RedirectService {
  constructor(private readonly deps: RedirectDeps) {}

  async request(
    principal: Principal,
    orderId: string,
    newAddress: PostalAddress,
    requestId: string,
    signal: AbortSignal,
    log: Logger,
  ): Promise<Outcome> {
    const { db, validator, clock } = this.deps;
    const order = await findVisibleOrder(db, principal, orderId);
    if (!order) return refusalOutcome(ORDER_NOT_FOUND);
    const refusal = redirectRefusal(order, requestId);
    if (refusal) return refusalOutcome(refusal);
    const shipment = order.shipment!;
    const validation = await validateNewAddress(validator, newAddress, signal, (suggested, fields) => ({
      ...emptyRedirectResult(order.id),
      shipment_id: shipment.id,
      tracking_id: shipment.trackingId,
      carrier: shipment.carrier,
      suggested_address: suggested,
      corrected_fields: fields,
    }));
    if (validation.kind !== 'use') return validation.outcome;
    if (signal.aborted) return notStartedOutcome('carrier');
    const reservation = await reserveRedirectRequest(db, {
      requestId,
      orderId: order.id,
      shipmentId: shipment.id,
      tenant: order.tenant,
      address: validation.address,
      at: clock.now(),
    });
    if (reservation.kind === 'blocked') return refusalOutcome(openRedirectRefusal(reservation.open));
    if (reservation.kind === 'exists') return this.#settledOutcome(requestId, signal);
    log.info(
      { order: order.id, shipment: shipment.id, op: requestId },
      'sending a redirect request to the carrier',
    );
    return this.#send(requestId, 'first', signal, validation.warnings);
  }

  /** Settles a request whose outcome is unknown by asking the carrier by request id. */
  async reconcile(requestId: string, signal: AbortSignal): Promise<ReconcileVerdict<RedirectRequestResult>> {
    const { db, carrier, clock } = this.deps;
    const record = await findRedirectRequest(db, requestId);
    if (!record) {
      if (await fenceUnsentRequest(db, requestId, clock.now()))
        return { settled: true, outcome: notStartedOutcome('carrier') };
      return this.reconcile(requestId, signal);
    }
    if (record.status !== 'sending')
      return { settled: true, outcome: await this.#settledOutcome(requestId, signal) };
    try {
      const received = await carrier.findRedirect(requestId, signal);
      if (received) return { settled: true, outcome: await this.#submitted(requestId, received, []) };
    } catch (error) {
      return { settled: false, note: `carrier status query failed: ${(error as Error).name}` };
    }
    // Never received: send it again under the same request id, which the carrier deduplicates.
    const sent = await this.#send(requestId, 'repeat', signal, []);
    if (sent.status === 'outcome_unknown' || sent.status === 'failed') {
      return { settled: false, note: 'carrier did not answer the repeated request' };
    }
    return { settled: true, outcome: sent };
  }

  /** An operator settled a request whose outcome stayed unknown; it no longer blocks the parcel. */
  async followReview(requestId: string, decision: ReviewDecisionView): Promise<void> {
    await settleReviewedRequest(this.deps.db, requestId, decision.resolution, this.deps.clock.now());
  }

  /**
   * Sends the request. Only on the first attempt does "unavailable" prove the carrier never got it;
   * a repeat may race a late delivery of the first, so then the request stays unsettled.
   */
  async #send(
    requestId: string,
    attempt: 'first' | 'repeat',
    signal: AbortSignal,
    warnings: Warning[],
  ): Promise<Outcome> {
    const { db, carrier, clock, carrierWaitMs } = this.deps;
    const record = (await findRedirectRequest(db, requestId))!;
    const order = (await loadOrder(db, record.orderId!))!;
    try {
      const received = await carrier.submitRedirect(
        {
          requestId,
          trackingId: order.shipment!.trackingId,
          tenant: record.tenant!,
          address: record.newAddress!,
        },
        AbortSignal.any([signal, AbortSignal.timeout(carrierWaitMs)]),
      );
      return this.#submitted(requestId, received, warnings);
    } catch (error) {
      if (error instanceof ExternalRejectedError) {
        await settleRedirectRequest(db, requestId, { status: 'refused', code: error.code }, clock.now());
        return refusalOutcome(carrierRefusal(error.code, error.message));
      }
      if (error instanceof ExternalUnavailableError && attempt === 'first') {
        await forgetUnsentRequest(db, requestId);
        return unavailableOutcome('carrier');
      }
      return silentOutcome('carrier');
    }
  }

  async #submitted(requestId: string, received: CarrierRedirect, warnings: Warning[]): Promise<Outcome> {
    const { db, clock } = this.deps;
    await settleRedirectRequest(
      db,
      requestId,
      { status: 'sent', carrierStatus: received.status },
      clock.now(),
    );
    const record = (await findRedirectRequest(db, requestId))!;
    const order = (await loadOrder(db, record.orderId!))!;
    return outcome.submitted(
      {
        ...emptyRedirectResult(order.id),
        shipment_id: received.shipment_id,
        tracking_id: received.tracking_id,
        carrier: order.shipment?.carrier ?? null,
        request_id: requestId,
        redirect_status: received.status,
        requested_address: record.newAddress,
      },
      {
        message:
          'The carrier received the redirect request and will decide later; it is not redirected yet. Check shipments_get_redirect for its decision.',
        warnings,
      },
    );
  }

  async #settledOutcome(requestId: string, signal: AbortSignal): Promise<Outcome> {
    const record = await findRedirectRequest(this.deps.db, requestId);
    switch (record?.status) {
      case 'sent': {
        const received = await this.deps.carrier.findRedirect(requestId, signal).catch(() => null);
        if (received) return this.#submitted(requestId, received, []);
        break;
      }
      case 'refused':
        return refusalOutcome(
          carrierRefusal(record.code ?? 'REDIRECT_NOT_ELIGIBLE', 'the carrier refused it'),
        );
      case 'abandoned':
        return notStartedOutcome('carrier');
      default:
        break;
    }
    return silentOutcome('carrier');
  }
}
