import type { EffectsLedger } from '@toolgate/simulation';
import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { addressDigest, type PostalAddress } from '../postal-address.ts';
import {
  CARRIER_SYSTEM,
  type CarrierRedirect,
  type CarrierShipmentStatus,
  selectRedirects,
  selectShipment,
} from './carrier-records.ts';

export interface ParcelRegistration {
  readonly trackingId: string;
  readonly shipmentId: string;
  readonly tenant: string;
  readonly status: CarrierShipmentStatus;
  readonly redirectEligible: boolean;
  readonly address: PostalAddress;
}

/** What a world action did, or why it did nothing. */
export type WorldChange<T> = { applied: true; value: T } | { applied: false; reason: string };

/**
 * The carrier's side of the world: parcels appear when a label is created, move, get delivered, and
 * redirect requests are accepted, declined and carried out. Driven by the demo seed and by
 * POST /test-api/simulate; each change is recorded in the effects ledger.
 */
export class CarrierWorld {
  constructor(
    private readonly db: SqlDatabase,
    private readonly ledger: EffectsLedger,
    private readonly now: () => number,
  ) {}

  async registerParcel(tx: SqlExecutor, parcel: ParcelRegistration): Promise<void> {
    await tx.execute(
      `INSERT INTO ext_carrier_shipments (tracking_id, shipment_id, tenant, status, redirect_eligible,
         address_digest, country_code, postal_code, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tracking_id) DO NOTHING`,
      [
        parcel.trackingId,
        parcel.shipmentId,
        parcel.tenant,
        parcel.status,
        parcel.redirectEligible ? 1 : 0,
        addressDigest(parcel.address),
        parcel.address.country_code,
        parcel.address.postal_code,
        this.now(),
      ],
    );
  }

  /** Moves a parcel (picked up, delivered); null when it is unknown or not in `from`. */
  async moveParcel(
    tx: SqlExecutor,
    shipmentId: string,
    from: readonly CarrierShipmentStatus[],
    to: CarrierShipmentStatus,
  ): Promise<WorldChange<CarrierShipmentStatus>> {
    const shipment = await selectShipment(tx, 'shipment_id', shipmentId);
    if (!shipment) return { applied: false, reason: 'the carrier has no such shipment' };
    if (!from.includes(shipment.status))
      return { applied: false, reason: `the parcel is ${shipment.status}` };
    await tx.execute('UPDATE ext_carrier_shipments SET status = ?, updated_at = ? WHERE shipment_id = ?', [
      to,
      this.now(),
      shipmentId,
    ]);
    await this.#record(tx, `parcel_${to}`, shipmentId, shipment.tenant, null);
    return { applied: true, value: shipment.status };
  }

  /** The carrier decides a submitted redirect, found by request id or by its parcel's shipment id. */
  decideRedirect(
    ref: { requestId?: string; shipmentId?: string },
    decision: 'accepted' | 'declined',
  ): Promise<WorldChange<CarrierRedirect>> {
    return this.db.transaction(async (tx) => {
      const redirect = await this.#find(tx, ref, 'submitted');
      if (!redirect) return { applied: false, reason: 'no submitted redirect request matches' };
      const at = this.now();
      await tx.execute('UPDATE ext_carrier_redirects SET status = ?, decided_at = ? WHERE request_id = ?', [
        decision,
        at,
        redirect.request_id,
      ]);
      if (decision === 'accepted') {
        await tx.execute(
          'UPDATE ext_carrier_shipments SET address_digest = ?, postal_code = ?, updated_at = ? WHERE tracking_id = ?',
          [redirect.address_digest, redirect.postal_code, at, redirect.tracking_id],
        );
      }
      const tenant = (await selectShipment(tx, 'tracking_id', redirect.tracking_id))?.tenant ?? '';
      await this.#record(tx, `redirect_${decision}`, redirect.shipment_id, tenant, redirect.request_id);
      return { applied: true, value: { ...redirect, status: decision, decided_at: at } };
    });
  }

  /** The carrier has delivered an accepted redirect to its new address. */
  completeRedirect(ref: { requestId?: string; shipmentId?: string }): Promise<WorldChange<CarrierRedirect>> {
    return this.db.transaction(async (tx) => {
      const redirect = await this.#find(tx, ref, 'accepted');
      if (!redirect) return { applied: false, reason: 'no accepted redirect request matches' };
      const at = this.now();
      await tx.execute(
        "UPDATE ext_carrier_redirects SET status = 'completed', completed_at = ? WHERE request_id = ?",
        [at, redirect.request_id],
      );
      const tenant = (await selectShipment(tx, 'tracking_id', redirect.tracking_id))?.tenant ?? '';
      await this.#record(tx, 'redirect_completed', redirect.shipment_id, tenant, redirect.request_id);
      return { applied: true, value: { ...redirect, status: 'completed', completed_at: at } };
    });
  }

  async reset(): Promise<void> {
    await this.db.execute('DELETE FROM ext_carrier_redirects');
    await this.db.execute('DELETE FROM ext_carrier_shipments');
  }

  async #find(
    tx: SqlExecutor,
    ref: { requestId?: string; shipmentId?: string },
    status: CarrierRedirect['status'],
  ): Promise<CarrierRedirect | undefined> {
    const candidates = ref.requestId
      ? await selectRedirects(tx, 'request_id', ref.requestId)
      : ref.shipmentId
        ? await selectRedirects(tx, 'shipment_id', ref.shipmentId)
        : [];
    return candidates.find((r) => r.status === status);
  }

  async #record(
    tx: SqlExecutor,
    action: string,
    shipmentId: string,
    tenant: string,
    requestId: string | null,
  ) {
    await this.ledger.record(
      { system: CARRIER_SYSTEM, action, ref: shipmentId, tenant, requestId, data: {} },
      tx,
    );
  }
}
