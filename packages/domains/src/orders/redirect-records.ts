import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { type PostalAddress, parseStoredAddress } from './postal-address.ts';
import type { RedirectStatus } from './systems/carrier/carrier-records.ts';

/**
 * sending: recorded, being sent to the carrier (while its outcome is unknown it stays here);
 * sent: the carrier received it (it decides later); refused: the carrier's rules refused it;
 * abandoned: a reconciler found it never started and fenced it, or an operator found it never arrived.
 */
export type RedirectRequestStatus = 'sending' | 'sent' | 'refused' | 'abandoned';

/**
 * A request that keeps the parcel from getting another one: still sending (outcome not established),
 * or received by the carrier and, as far as the shop has heard, neither declined nor carried out.
 * The same condition is the partial unique index of orders_0004_redirect_guard (one per shipment).
 */
/** The SQL condition of an open request, on the columns of `table` (a table name or alias). */
export const openRequestOf = (table: string) =>
  `(${table}.status = 'sending' OR (${table}.status = 'sent' AND ${table}.carrier_status IN ('submitted', 'accepted')))`;
const OPEN_REQUEST = openRequestOf('shipment_redirect_requests');

export interface OpenRedirectRequest {
  readonly requestId: string;
  readonly status: 'sending' | 'sent';
  /** The carrier's last known decision; null while sending. */
  readonly carrierStatus: RedirectStatus | null;
}

export interface RedirectRequestRecord {
  readonly requestId: string;
  readonly orderId: string | null;
  readonly shipmentId: string | null;
  readonly tenant: string | null;
  readonly newAddress: PostalAddress | null;
  readonly status: RedirectRequestStatus;
  readonly code: string | null;
}

type RequestRow = {
  request_id: string;
  order_id: string | null;
  shipment_id: string | null;
  tenant: string | null;
  new_address: string | null;
  status: RedirectRequestStatus;
  code: string | null;
};

export async function findRedirectRequest(
  executor: SqlExecutor,
  requestId: string,
): Promise<RedirectRequestRecord | null> {
  const rows = await executor.query<RequestRow>(
    `SELECT request_id, order_id, shipment_id, tenant, new_address, status, code
     FROM shipment_redirect_requests WHERE request_id = ?`,
    [requestId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    requestId: row.request_id,
    orderId: row.order_id,
    shipmentId: row.shipment_id,
    tenant: row.tenant,
    newAddress: row.new_address === null ? null : parseStoredAddress(row.new_address),
    status: row.status,
    code: row.code,
  };
}

/** The request that blocks another redirect of this shipment, if any. */
export async function findOpenRedirect(
  executor: SqlExecutor,
  shipmentId: string,
): Promise<OpenRedirectRequest | null> {
  const rows = await executor.query<{
    request_id: string;
    status: 'sending' | 'sent';
    carrier_status: RedirectStatus | null;
  }>(
    `SELECT request_id, status, carrier_status FROM shipment_redirect_requests
     WHERE shipment_id = ? AND ${OPEN_REQUEST}`,
    [shipmentId],
  );
  const row = rows[0];
  return row ? { requestId: row.request_id, status: row.status, carrierStatus: row.carrier_status } : null;
}

/**
 * Records a request about to be sent; false when the request id already has a record or the shipment
 * already has an open request (the partial unique index refuses it, so two deliveries racing with
 * different keys cannot both send).
 */
export async function insertSendingRequest(
  db: SqlDatabase,
  request: {
    requestId: string;
    orderId: string;
    shipmentId: string;
    tenant: string;
    address: PostalAddress;
    at: number;
  },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO shipment_redirect_requests (request_id, order_id, shipment_id, tenant, new_address, status, created_at)
     VALUES (?, ?, ?, ?, ?, 'sending', ?) ON CONFLICT DO NOTHING RETURNING request_id`,
    [
      request.requestId,
      request.orderId,
      request.shipmentId,
      request.tenant,
      JSON.stringify(request.address),
      request.at,
    ],
  );
  return rows.length > 0;
}

/** Marks a request that has no record as never sent, so a delivery still on its way cannot send it. */
export async function fenceUnsentRequest(db: SqlDatabase, requestId: string, at: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO shipment_redirect_requests (request_id, status, code, created_at, settled_at)
     VALUES (?, 'abandoned', 'OPERATION_NOT_STARTED', ?, ?) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
    [requestId, at, at],
  );
  return rows.length > 0;
}

/** Settles a request that was sending; a request already settled keeps its first settlement. */
export async function settleRedirectRequest(
  db: SqlDatabase,
  requestId: string,
  settlement: { status: 'sent'; carrierStatus: RedirectStatus } | { status: 'refused'; code: string },
  at: number,
): Promise<void> {
  const code = settlement.status === 'refused' ? settlement.code : null;
  await db.execute(
    `UPDATE shipment_redirect_requests SET status = ?, code = ?, settled_at = ?,
       carrier_status = COALESCE(carrier_status, ?)
     WHERE request_id = ? AND status = 'sending'`,
    [settlement.status, code, at, settlement.status === 'sent' ? settlement.carrierStatus : null, requestId],
  );
}

/** The shop hears what the carrier decided about a request (accepted, declined, completed). */
export async function recordCarrierDecision(
  executor: SqlExecutor,
  requestId: string,
  carrierStatus: RedirectStatus,
): Promise<void> {
  await executor.execute('UPDATE shipment_redirect_requests SET carrier_status = ? WHERE request_id = ?', [
    carrierStatus,
    requestId,
  ]);
}

/**
 * An operator settled a request whose outcome could not be established: the carrier has it (sent) or
 * never got it (abandoned). Either way it no longer blocks the parcel as "unknown".
 */
export async function settleReviewedRequest(
  db: SqlDatabase,
  requestId: string,
  resolution: 'completed' | 'rejected',
  at: number,
): Promise<void> {
  await db.execute(
    `UPDATE shipment_redirect_requests SET status = ?, code = 'SETTLED_IN_REVIEW', settled_at = ?
     WHERE request_id = ? AND status = 'sending'`,
    [resolution === 'completed' ? 'sent' : 'abandoned', at, requestId],
  );
}

/** The carrier provably never got the request: forget it, so the same operation may run again. */
export async function forgetUnsentRequest(db: SqlDatabase, requestId: string): Promise<void> {
  await db.execute("DELETE FROM shipment_redirect_requests WHERE request_id = ? AND status = 'sending'", [
    requestId,
  ]);
}
