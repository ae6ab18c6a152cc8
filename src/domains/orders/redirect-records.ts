import type { SqlDatabase, SqlExecutor } from '../../store/sql-database.ts';
import { type PostalAddress, parseStoredAddress } from './postal-address.ts';

/**
 * sending: recorded, being sent to the carrier; sent: the carrier received it (it decides later);
 * refused: the carrier's rules refused it; abandoned: a reconciler found it never started and fenced it.
 */
export type RedirectRequestStatus = 'sending' | 'sent' | 'refused' | 'abandoned';

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

/** Records a request about to be sent; false when the request id already has a record. */
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
     VALUES (?, ?, ?, ?, ?, 'sending', ?) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
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
  status: 'sent' | 'refused',
  code: string | null,
  at: number,
): Promise<void> {
  await db.execute(
    `UPDATE shipment_redirect_requests SET status = ?, code = ?, settled_at = ? WHERE request_id = ? AND status = 'sending'`,
    [status, code, at, requestId],
  );
}

/** The carrier provably never got the request: forget it, so the same operation may run again. */
export async function forgetUnsentRequest(db: SqlDatabase, requestId: string): Promise<void> {
  await db.execute("DELETE FROM shipment_redirect_requests WHERE request_id = ? AND status = 'sending'", [
    requestId,
  ]);
}
