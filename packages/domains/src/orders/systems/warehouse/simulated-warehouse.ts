import type { EffectsLedger, FaultInjector } from '@toolgate/simulation';
import { ExternalRejectedError, throughFaults } from '@toolgate/simulation';
import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { addressDigest, type PostalAddress } from '../postal-address.ts';

export const WAREHOUSE_SYSTEM = 'warehouse';

/** How far the warehouse has taken an order; only `open` orders still accept address updates. */
export type WarehouseOrderStatus = 'open' | 'locked' | 'label_created' | 'handed_to_carrier';

/** An address update the warehouse applied, as it answers a query by operation id. */
export type AppliedAddressUpdate = {
  operation_id: string;
  order_id: string;
  address_digest: string;
  country_code: string;
  postal_code: string;
  applied_at: number;
};

export interface AddressUpdateRequest {
  readonly operationId: string;
  readonly orderId: string;
  readonly tenant: string;
  readonly address: PostalAddress;
}

/**
 * The simulated warehouse. Its state lives in its own tables so it outlives a gateway crash; address
 * updates are applied once per operation id and each applied effect is recorded in the ledger in the
 * same transaction. Calls from the gateway go through the armed faults; world actions do not.
 */
export class SimulatedWarehouse {
  constructor(
    private readonly db: SqlDatabase,
    private readonly faults: FaultInjector,
    private readonly ledger: EffectsLedger,
    private readonly now: () => number,
  ) {}

  /** Applies a delivery address update, or answers the earlier application of the same operation. */
  applyAddressUpdate(request: AddressUpdateRequest, signal: AbortSignal): Promise<AppliedAddressUpdate> {
    return throughFaults(
      this.faults,
      WAREHOUSE_SYSTEM,
      { action: 'apply_address_update', attributes: { order_id: request.orderId } },
      signal,
      () => this.db.transaction((tx) => this.#apply(tx, request)),
    );
  }

  /** What the warehouse knows about an operation: the applied update, or null if it never arrived. */
  findAddressUpdate(operationId: string, signal: AbortSignal): Promise<AppliedAddressUpdate | null> {
    return throughFaults(
      this.faults,
      WAREHOUSE_SYSTEM,
      { action: 'get_address_update', attributes: { operation_id: operationId } },
      signal,
      async () => (await this.#update(this.db, operationId)) ?? null,
    );
  }

  /** Registers an order the warehouse will fulfil (demo world and new orders). */
  async receiveOrder(
    tx: SqlExecutor,
    order: { orderId: string; tenant: string; address: PostalAddress; status: WarehouseOrderStatus },
  ) {
    await tx.execute(
      `INSERT INTO ext_warehouse_orders (order_id, tenant, status, address_digest, country_code, postal_code, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
      [
        order.orderId,
        order.tenant,
        order.status,
        addressDigest(order.address),
        order.address.country_code,
        order.address.postal_code,
        this.now(),
      ],
    );
  }

  /**
   * World action: the warehouse moves an order one step (lock, label, hand to carrier). Answers the
   * status it was in, or null when the order is unknown or not in `from`.
   */
  async advance(
    tx: SqlExecutor,
    orderId: string,
    from: readonly WarehouseOrderStatus[],
    to: WarehouseOrderStatus,
  ): Promise<WarehouseOrderStatus | null> {
    const rows = await tx.query<{ status: WarehouseOrderStatus; tenant: string }>(
      'SELECT status, tenant FROM ext_warehouse_orders WHERE order_id = ?',
      [orderId],
    );
    const row = rows[0];
    if (!row || !from.includes(row.status)) return null;
    await tx.execute('UPDATE ext_warehouse_orders SET status = ?, updated_at = ? WHERE order_id = ?', [
      to,
      this.now(),
      orderId,
    ]);
    await this.ledger.record(
      {
        system: WAREHOUSE_SYSTEM,
        action: `order_${to}`,
        ref: orderId,
        tenant: row.tenant,
        requestId: null,
        data: { from: row.status },
      },
      tx,
    );
    return row.status;
  }

  async status(orderId: string): Promise<WarehouseOrderStatus | null> {
    const rows = await this.db.query<{ status: WarehouseOrderStatus }>(
      'SELECT status FROM ext_warehouse_orders WHERE order_id = ?',
      [orderId],
    );
    return rows[0]?.status ?? null;
  }

  async reset(): Promise<void> {
    await this.db.execute('DELETE FROM ext_warehouse_address_updates');
    await this.db.execute('DELETE FROM ext_warehouse_orders');
  }

  async #apply(tx: SqlExecutor, request: AddressUpdateRequest): Promise<AppliedAddressUpdate> {
    const earlier = await this.#update(tx, request.operationId);
    if (earlier) return earlier;
    const orders = await tx.query<{ status: WarehouseOrderStatus }>(
      'SELECT status FROM ext_warehouse_orders WHERE order_id = ? AND tenant = ?',
      [request.orderId, request.tenant],
    );
    const status = orders[0]?.status;
    if (!status)
      throw new ExternalRejectedError(WAREHOUSE_SYSTEM, 'UNKNOWN_ORDER', 'the warehouse has no such order');
    if (status !== 'open') {
      throw new ExternalRejectedError(
        WAREHOUSE_SYSTEM,
        'ORDER_LOCKED',
        `the warehouse has the order ${status}`,
      );
    }
    const update: AppliedAddressUpdate = {
      operation_id: request.operationId,
      order_id: request.orderId,
      address_digest: addressDigest(request.address),
      country_code: request.address.country_code,
      postal_code: request.address.postal_code,
      applied_at: this.now(),
    };
    // A concurrent delivery of the same operation may have inserted first; then its update stands.
    const inserted = await tx.query(
      `INSERT INTO ext_warehouse_address_updates
         (operation_id, order_id, tenant, address_digest, country_code, postal_code, applied_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (operation_id) DO NOTHING RETURNING operation_id`,
      [
        update.operation_id,
        update.order_id,
        request.tenant,
        update.address_digest,
        update.country_code,
        update.postal_code,
        update.applied_at,
      ],
    );
    if (inserted.length === 0) return (await this.#update(tx, request.operationId))!;
    await tx.execute(
      'UPDATE ext_warehouse_orders SET address_digest = ?, country_code = ?, postal_code = ?, updated_at = ? WHERE order_id = ?',
      [update.address_digest, update.country_code, update.postal_code, update.applied_at, request.orderId],
    );
    await this.ledger.record(
      {
        system: WAREHOUSE_SYSTEM,
        action: 'address_update_applied',
        ref: request.orderId,
        tenant: request.tenant,
        requestId: request.operationId,
        data: {
          address_digest: update.address_digest,
          country_code: update.country_code,
          postal_code: update.postal_code,
        },
      },
      tx,
    );
    return update;
  }

  async #update(executor: SqlExecutor, operationId: string): Promise<AppliedAddressUpdate | undefined> {
    const rows = await executor.query<AppliedAddressUpdate>(
      `SELECT operation_id, order_id, address_digest, country_code, postal_code, applied_at
       FROM ext_warehouse_address_updates WHERE operation_id = ?`,
      [operationId],
    );
    const row = rows[0];
    return row ? { ...row, applied_at: Number(row.applied_at) } : undefined;
  }
}
