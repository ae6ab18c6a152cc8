import type { SqlExecutor } from 'toolgate';
import { DEMO_CARRIER, demoId, trackingIdFor } from './demo-orders.ts';
import type { OrdersSystems } from './orders-systems.ts';
import type { PostalAddress } from './postal-address.ts';
import type { CarrierShipmentStatus } from './systems/carrier/carrier-records.ts';

export interface DemoShipment {
  /** Seeds the deterministic shipment id, so a reset world gets the same ids. */
  readonly label: string;
  readonly orderId: string;
  readonly tenant: string;
  readonly status: CarrierShipmentStatus;
  readonly redirectEligible: boolean;
  readonly address: PostalAddress;
  readonly at: number;
}

/**
 * Ships an order in the demo world: the retailer's shipment row and the carrier's parcel, in the
 * caller's transaction, so the seed and the warehouse's world actions create parcels the same way.
 * Answers the shipment id.
 */
export async function shipDemoOrder(
  tx: SqlExecutor,
  systems: OrdersSystems,
  shipment: DemoShipment,
): Promise<string> {
  const shipmentId = demoId('shp_', shipment.label);
  const trackingId = trackingIdFor(shipmentId);
  await tx.execute(
    'INSERT INTO shipments (id, order_id, tenant, carrier, tracking_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [shipmentId, shipment.orderId, shipment.tenant, DEMO_CARRIER, trackingId, shipment.at],
  );
  await systems.carrierWorld.registerParcel(tx, {
    trackingId,
    shipmentId,
    tenant: shipment.tenant,
    status: shipment.status,
    redirectEligible: shipment.redirectEligible,
    address: shipment.address,
  });
  return shipmentId;
}
