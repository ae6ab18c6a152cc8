import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { type PostalAddress, parseStoredAddress } from './postal-address.ts';

/**
 * pending: committed on our side, sent (or about to be sent) to the warehouse;
 * applied: the warehouse confirmed and the order carries the new address;
 * refused: the warehouse refused it; abandoned: a reconciler found it never started and fenced it.
 */
export type AddressChangeStatus = 'pending' | 'applied' | 'refused' | 'abandoned';

export interface AddressChangeRecord {
  readonly operationId: string;
  readonly orderId: string | null;
  readonly tenant: string | null;
  readonly newAddress: PostalAddress | null;
  readonly status: AddressChangeStatus;
  readonly code: string | null;
  readonly resultingVersion: number | null;
}

type ChangeRow = {
  operation_id: string;
  order_id: string | null;
  tenant: string | null;
  new_address: string | null;
  status: AddressChangeStatus;
  code: string | null;
  resulting_version: number | null;
};

export async function findAddressChange(
  executor: SqlExecutor,
  operationId: string,
): Promise<AddressChangeRecord | null> {
  const rows = await executor.query<ChangeRow>(
    `SELECT operation_id, order_id, tenant, new_address, status, code, resulting_version
     FROM order_address_changes WHERE operation_id = ?`,
    [operationId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    operationId: row.operation_id,
    orderId: row.order_id,
    tenant: row.tenant,
    newAddress: row.new_address === null ? null : parseStoredAddress(row.new_address),
    status: row.status,
    code: row.code,
    resultingVersion: row.resulting_version === null ? null : Number(row.resulting_version),
  };
}

/** Records a new pending change; false when the operation id already has a record. */
export async function insertPendingChange(
  tx: SqlExecutor,
  change: { operationId: string; orderId: string; tenant: string; address: PostalAddress; at: number },
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO order_address_changes (operation_id, order_id, tenant, new_address, status, created_at)
     VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (operation_id) DO NOTHING RETURNING operation_id`,
    [change.operationId, change.orderId, change.tenant, JSON.stringify(change.address), change.at],
  );
  return rows.length > 0;
}

/**
 * Marks an operation that has no record as never started, so a delivery still on its way can no
 * longer begin it. False when a record appeared first.
 */
export async function fenceUnstartedChange(
  db: SqlDatabase,
  operationId: string,
  at: number,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO order_address_changes (operation_id, status, code, created_at, settled_at)
     VALUES (?, 'abandoned', 'OPERATION_NOT_STARTED', ?, ?) ON CONFLICT (operation_id) DO NOTHING RETURNING operation_id`,
    [operationId, at, at],
  );
  return rows.length > 0;
}

/** The warehouse has the change: the order takes the new address and a new version, in one transaction. */
export function applyConfirmedChange(
  db: SqlDatabase,
  operationId: string,
  at: number,
): Promise<{ orderId: string; address: PostalAddress; version: number }> {
  return db.transaction(async (tx) => {
    const change = await findAddressChange(tx, operationId);
    if (!change?.orderId || !change.newAddress)
      throw new Error(`address change ${operationId} has no pending record`);
    if (change.status === 'applied') {
      return { orderId: change.orderId, address: change.newAddress, version: change.resultingVersion! };
    }
    if (change.status !== 'pending') throw new Error(`address change ${operationId} is ${change.status}`);
    await tx.execute(
      `UPDATE orders SET delivery_address = ?, version = version + 1, pending_change_id = NULL, updated_at = ?
       WHERE id = ? AND pending_change_id = ?`,
      [JSON.stringify(change.newAddress), at, change.orderId, operationId],
    );
    const [order] = await tx.query<{ version: number }>('SELECT version FROM orders WHERE id = ?', [
      change.orderId,
    ]);
    const version = Number(order!.version);
    await tx.execute(
      `UPDATE order_address_changes SET status = 'applied', resulting_version = ?, settled_at = ? WHERE operation_id = ?`,
      [version, at, operationId],
    );
    return { orderId: change.orderId, address: change.newAddress, version };
  });
}

/**
 * The warehouse refused the change (`refused`, kept for later replies) or provably never got it (the
 * record is removed, so the same operation may run again): either way the order is released and
 * keeps its previous address.
 */
export async function releasePendingChange(
  db: SqlDatabase,
  operationId: string,
  verdict: { refused: string } | 'never_received',
  at: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      'UPDATE orders SET pending_change_id = NULL, updated_at = ? WHERE pending_change_id = ?',
      [at, operationId],
    );
    if (verdict === 'never_received') {
      await tx.execute("DELETE FROM order_address_changes WHERE operation_id = ? AND status = 'pending'", [
        operationId,
      ]);
    } else {
      await tx.execute(
        `UPDATE order_address_changes SET status = 'refused', code = ?, settled_at = ? WHERE operation_id = ? AND status = 'pending'`,
        [verdict.refused, at, operationId],
      );
    }
  });
}
