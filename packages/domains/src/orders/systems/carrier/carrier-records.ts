import type { SqlExecutor } from 'toolgate';

export const CARRIER_SYSTEM = 'carrier';

/** Where a parcel is, as the carrier sees it. */
export type CarrierShipmentStatus = 'label_created' | 'in_transit' | 'delivered';
/** A redirect request's life at the carrier: decided later, then carried out. */
export const REDIRECT_STATUSES = ['submitted', 'accepted', 'declined', 'completed'] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

export type CarrierShipment = {
  tracking_id: string;
  shipment_id: string;
  tenant: string;
  status: CarrierShipmentStatus;
  redirect_eligible: number;
  country_code: string;
};

/** A redirect request as the carrier reports it. */
export type CarrierRedirect = {
  request_id: string;
  tracking_id: string;
  shipment_id: string;
  status: RedirectStatus;
  address_digest: string;
  country_code: string;
  postal_code: string;
  requested_at: number;
  decided_at: number | null;
  completed_at: number | null;
};

const REDIRECT_COLUMNS =
  'request_id, tracking_id, shipment_id, status, address_digest, country_code, postal_code, requested_at, decided_at, completed_at';

/** Reads the carrier's tables; shared by the gateway-facing calls and the world actions. */
export async function selectRedirects(
  executor: SqlExecutor,
  where: 'request_id' | 'tracking_id' | 'shipment_id',
  value: string,
): Promise<CarrierRedirect[]> {
  const rows = await executor.query<CarrierRedirect>(
    `SELECT ${REDIRECT_COLUMNS} FROM ext_carrier_redirects WHERE ${where} = CAST(? AS TEXT)
     ORDER BY requested_at DESC, request_id`,
    [value],
  );
  return rows.map((row) => ({
    ...row,
    requested_at: Number(row.requested_at),
    decided_at: row.decided_at === null ? null : Number(row.decided_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
  }));
}

export async function selectShipment(
  executor: SqlExecutor,
  where: 'tracking_id' | 'shipment_id',
  value: string,
): Promise<CarrierShipment | undefined> {
  const rows = await executor.query<CarrierShipment>(
    `SELECT tracking_id, shipment_id, tenant, status, redirect_eligible, country_code
     FROM ext_carrier_shipments WHERE ${where} = ?`,
    [value],
  );
  return rows[0];
}
