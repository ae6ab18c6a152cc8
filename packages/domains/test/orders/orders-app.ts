import { Writable } from 'node:stream';
import type { Effect } from '@toolgate/simulation';
import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OutcomeEnvelope, Principal } from 'toolgate';
import { type App, createApp, ShiftableClock } from 'toolgate/server';
import type { StoreTarget } from '../../../../test/support/store-targets.ts';
import { DEMO_ORDERS, demoId } from '../../src/orders/demo-orders.ts';
import { createOrdersDomain, type OrdersDomainOptions } from '../../src/orders/orders-domain.ts';
import type { PostalAddress } from '../../src/orders/postal-address.ts';
import { demoPrincipalNamed } from '../demo-principal.ts';

/** The orders domain served in-process by a complete app (durable operations included), on one store. */
export interface OrdersHarness {
  readonly app: App;
  readonly clock: ShiftableClock;
  /** Every log line the app wrote, at debug level (to check that no address leaks). */
  readonly logLines: string[];
  call(who: string | Principal, tool: string, args: Record<string, unknown>): Promise<OutcomeEnvelope>;
  /** The order row as stored (address parsed). */
  order(orderId: string): Promise<StoredOrder>;
  effects(system: string, action?: string): Promise<Effect[]>;
  /** Shifts the clock past any back-off and runs one reconciler pass. */
  reconcile(): Promise<unknown>;
  close(): Promise<void>;
}

export interface StoredOrder {
  readonly version: number;
  readonly state: string;
  readonly address: PostalAddress;
  readonly pending_change_id: string | null;
}

/** The id of a demo order by its label (see packages/domains/src/orders/demo-orders.ts). */
export function orderId(label: string): string {
  if (!DEMO_ORDERS.some((o) => o.label === label)) throw new Error(`no demo order ${label}`);
  return demoId('ord_', label);
}

let keySeq = 0;
export function newKey(label = 'orders'): string {
  keySeq += 1;
  return `${label}-${Date.now().toString(36)}-${keySeq.toString().padStart(6, '0')}`;
}

export async function startOrders(
  target: StoreTarget,
  options: OrdersDomainOptions = {},
): Promise<OrdersHarness> {
  const location = await target.create();
  const clock = new ShiftableClock();
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const app = await createApp({
    ...location.config,
    logger: pino({ level: 'debug' }, sink),
    modules: [createOrdersDomain({ warehouseWaitMs: 400, carrierWaitMs: 400, ...options })],
    backgroundJobs: false,
    clock,
  });
  await simulationOf(app).seed();
  const principalOf = (who: string | Principal) => demoPrincipalNamed(simulationOf(app).principals, who);
  return {
    app,
    clock,
    logLines,
    call: (who, tool, args) =>
      app.gateway.call({ name: tool, arguments: args }, principalOf(who)).then((answer) => answer.envelope),
    async order(id) {
      const [row] = await app.db.query<{
        version: number;
        state: string;
        delivery_address: string;
        pending_change_id: string | null;
      }>('SELECT version, state, delivery_address, pending_change_id FROM orders WHERE id = ?', [id]);
      if (!row) throw new Error(`no order ${id}`);
      return {
        version: Number(row.version),
        state: row.state,
        address: JSON.parse(row.delivery_address) as PostalAddress,
        pending_change_id: row.pending_change_id,
      };
    },
    effects: (system, action) => simulationWorld(app.db).ledger.list({ system, action }),
    async reconcile() {
      clock.shift(10 * 60_000);
      return app.operations.reconciler.runOnce();
    },
    async close() {
      await app.close();
      await location.dispose();
    },
  };
}
