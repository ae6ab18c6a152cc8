import { ExternalRejectedError, ExternalUnavailableError } from '@toolgate/simulation';
import type { Logger } from 'pino';
import type { Clock, Principal, ReconcileVerdict, ReviewDecisionView, SqlDatabase, Warning } from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import {
  applyConfirmedChange,
  fenceUnstartedChange,
  findAddressChange,
  releasePendingChange,
} from './address-change-records.ts';
import { reservePendingChange } from './address-change-reservation.ts';
import { validateNewAddress } from './address-validation-step.ts';
import {
  notStartedOutcome,
  refusalOutcome,
  silentOutcome,
  unavailableOutcome,
} from './operation-outcomes.ts';
import type { AddressChangeResult } from './order-contract-schemas.ts';
import { findVisibleOrder, loadOrder, type OrderRecord } from './order-records.ts';
import { addressChangeRefusal, ORDER_NOT_FOUND, WAREHOUSE_HANDOFF_STARTED } from './order-refusals.ts';
import type { PostalAddress } from './postal-address.ts';
import type { AddressValidationService } from './systems/address-validation/address-validation-service.ts';
import type { AddressField } from './systems/postal-address.ts';
import type { AddressUpdateRequest, SimulatedWarehouse } from './systems/warehouse/simulated-warehouse.ts';

export interface AddressChangeDeps {
  readonly db: SqlDatabase;
  readonly warehouse: SimulatedWarehouse;
  readonly validator: AddressValidationService;
  readonly clock: Clock;
  /** How long to wait for the warehouse before answering outcome_unknown. */
  readonly warehouseWaitMs: number;
}

export interface AddressChangeRequest {
  readonly orderId: string;
  readonly expectedVersion: number;
  readonly newAddress: PostalAddress;
}

type Outcome = ToolOutcome<AddressChangeResult>;

/** A material correction address validation suggests for an order the caller may still change. */
export interface SuggestedCorrection {
  readonly orderId: string;
  readonly suggested: PostalAddress;
  readonly fields: readonly AddressField[];
}

export type CorrectionCheck =
  | { readonly kind: 'none' }
  | { readonly kind: 'correction'; readonly correction: SuggestedCorrection }
  | { readonly kind: 'unavailable'; readonly outcome: ToolOutcome<never> };

/**
 * Replaces the delivery address of an order the retailer still controls. The order service decides
 * (ownership, state, version, destination rules) and records the change as pending in one transaction;
 * then the warehouse is told with the operation id, and only its confirmation puts the new address on
 * the order. If that confirmation is lost, the order keeps its previous address with the change
 * pending, and `reconcile` finishes the job by asking the warehouse.
 */
export class AddressChangeService {
  constructor(private readonly deps: AddressChangeDeps) {}

  /**
   * Replaces the address. `chosen` is the address the customer chose when validation suggested a
   * material correction (the suggestion or their own): it is applied as chosen, without asking
   * validation again; otherwise the new address is validated first.
   */
  async change(
    principal: Principal,
    request: AddressChangeRequest,
    operationId: string,
    signal: AbortSignal,
    log: Logger,
    chosen: PostalAddress | null = null,
  ): Promise<Outcome> {
    const { db, clock } = this.deps;
    const checked = await this.#check(principal, request, operationId);
    if (checked.kind === 'refused') return checked.outcome;
    const { order } = checked;
    const validation = chosen
      ? { kind: 'use' as const, address: chosen, warnings: [] }
      : await this.#validate(order, request, signal);
    if (validation.kind !== 'use') return validation.outcome;
    if (signal.aborted) return notStartedOutcome('warehouse');
    const reservation = await reservePendingChange(db, {
      principal,
      orderId: order.id,
      expectedVersion: request.expectedVersion,
      address: validation.address,
      operationId,
      at: clock.now(),
    });
    if (reservation.kind === 'refused') return refusalOutcome(reservation.refusal);
    if (reservation.kind === 'exists') return this.#settledOutcome(operationId);
    log.info({ order: order.id, op: operationId }, 'address change reserved; telling the warehouse');
    const target = { operationId, orderId: order.id, tenant: principal.tenant, address: validation.address };
    return this.#tellWarehouse(target, 'first', signal, validation.warnings);
  }

  /**
   * What the customer must be asked before this change runs, by the same checks a change runs first:
   * the material correction validation suggests; nothing (`none`) when the address is valid (perhaps
   * with cosmetic fixes) or the change would be refused, which the change itself then answers; or
   * `unavailable` when validation does not answer, so nobody can tell yet. Changes nothing.
   */
  async correctionToConfirm(
    principal: Principal,
    request: AddressChangeRequest,
    signal: AbortSignal,
  ): Promise<CorrectionCheck> {
    const checked = await this.#check(principal, request, null);
    if (checked.kind === 'refused') return { kind: 'none' };
    const validation = await this.#validate(checked.order, request, signal);
    if (validation.kind === 'correction') {
      return {
        kind: 'correction',
        correction: { orderId: checked.order.id, suggested: validation.suggested, fields: validation.fields },
      };
    }
    if (validation.kind === 'unavailable') return validation;
    return { kind: 'none' };
  }

  /** The order, if the caller may change its address now (operationId: the change asking, if any). */
  async #check(
    principal: Principal,
    request: AddressChangeRequest,
    operationId: string | null,
  ): Promise<{ kind: 'order'; order: OrderRecord } | { kind: 'refused'; outcome: Outcome }> {
    const order = await findVisibleOrder(this.deps.db, principal, request.orderId);
    if (!order) return { kind: 'refused', outcome: refusalOutcome(ORDER_NOT_FOUND) };
    const early = addressChangeRefusal(order, request.expectedVersion, operationId);
    if (early) return { kind: 'refused', outcome: refusalOutcome(early) };
    return { kind: 'order', order };
  }

  #validate(order: OrderRecord, request: AddressChangeRequest, signal: AbortSignal) {
    return validateNewAddress<AddressChangeResult>(
      this.deps.validator,
      request.newAddress,
      signal,
      (suggested, fields) => ({
        order_id: order.id,
        order_version: order.version,
        fulfilment_state: order.state,
        confirmed_address: null,
        suggested_address: suggested,
        corrected_fields: fields,
      }),
    );
  }

  /** Settles an operation whose outcome is unknown by asking the warehouse by operation id. */
  async reconcile(operationId: string, signal: AbortSignal): Promise<ReconcileVerdict<AddressChangeResult>> {
    const { db, warehouse, clock } = this.deps;
    const change = await findAddressChange(db, operationId);
    if (!change) {
      if (await fenceUnstartedChange(db, operationId, clock.now()))
        return { settled: true, outcome: notStartedOutcome('warehouse') };
      return this.reconcile(operationId, signal);
    }
    if (change.status !== 'pending')
      return { settled: true, outcome: await this.#settledOutcome(operationId) };
    try {
      const applied = await warehouse.findAddressUpdate(operationId, signal);
      if (applied) return { settled: true, outcome: await this.#completed(operationId, []) };
    } catch (error) {
      return { settled: false, note: `warehouse status query failed: ${(error as Error).name}` };
    }
    // The update never arrived: send it again under the same operation id, which the warehouse deduplicates.
    const target = {
      operationId,
      orderId: change.orderId!,
      tenant: change.tenant!,
      address: change.newAddress!,
    };
    const sent = await this.#tellWarehouse(target, 'repeat', signal, []);
    if (sent.status === 'outcome_unknown' || sent.status === 'failed') {
      return { settled: false, note: 'warehouse did not answer the repeated update' };
    }
    return { settled: true, outcome: sent };
  }

  /**
   * An operator settled a change whose outcome stayed unknown: the warehouse has it (the order takes
   * the new address) or never got it (the order keeps its address). Either way the order stops waiting.
   */
  async followReview(operationId: string, decision: ReviewDecisionView): Promise<void> {
    const { db, clock } = this.deps;
    const change = await findAddressChange(db, operationId);
    if (change?.status !== 'pending') return;
    if (decision.resolution === 'completed') await applyConfirmedChange(db, operationId, clock.now());
    else await releasePendingChange(db, operationId, { refused: 'REJECTED_IN_REVIEW' }, clock.now());
  }

  /**
   * Sends the update. Only on the first attempt does "unavailable" prove the warehouse never got it;
   * a repeat may race a late delivery of the first, so then the change stays pending.
   */
  async #tellWarehouse(
    update: AddressUpdateRequest,
    attempt: 'first' | 'repeat',
    signal: AbortSignal,
    warnings: Warning[],
  ): Promise<Outcome> {
    const { warehouse, clock, warehouseWaitMs } = this.deps;
    const { operationId } = update;
    try {
      await warehouse.applyAddressUpdate(
        update,
        AbortSignal.any([signal, AbortSignal.timeout(warehouseWaitMs)]),
      );
    } catch (error) {
      if (error instanceof ExternalRejectedError) {
        await releasePendingChange(this.deps.db, operationId, { refused: error.code }, clock.now());
        return refusalOutcome(WAREHOUSE_HANDOFF_STARTED);
      }
      if (error instanceof ExternalUnavailableError && attempt === 'first') {
        await releasePendingChange(this.deps.db, operationId, 'never_received', clock.now());
        return unavailableOutcome('warehouse');
      }
      return silentOutcome('warehouse');
    }
    return this.#completed(operationId, warnings);
  }

  async #completed(operationId: string, warnings: Warning[]): Promise<Outcome> {
    const applied = await applyConfirmedChange(this.deps.db, operationId, this.deps.clock.now());
    const order = await loadOrder(this.deps.db, applied.orderId);
    return outcome.completed(
      {
        order_id: applied.orderId,
        order_version: applied.version,
        fulfilment_state: order!.state,
        confirmed_address: applied.address,
        suggested_address: null,
        corrected_fields: [],
      },
      { message: 'The delivery address was replaced and the warehouse confirmed it.', warnings },
    );
  }

  /** The outcome of an operation whose record is already final. */
  async #settledOutcome(operationId: string): Promise<Outcome> {
    const change = await findAddressChange(this.deps.db, operationId);
    switch (change?.status) {
      case 'applied':
        return this.#completed(operationId, []);
      case 'refused':
        return refusalOutcome(WAREHOUSE_HANDOFF_STARTED);
      case 'abandoned':
        return notStartedOutcome('warehouse');
      default:
        return silentOutcome('warehouse');
    }
  }
}
