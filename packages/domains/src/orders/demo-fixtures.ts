import type { SqlDatabase } from 'toolgate';
import { ADDRESS_SAMPLES, DEMO_ORDERS, demoId } from './demo-orders.ts';
import { principalNameOf } from './demo-principals.ts';
import type { FulfilmentState } from './fulfilment.ts';

type FixtureOrderRow = {
  id: string;
  tenant: string;
  customer_subject: string;
  state: FulfilmentState;
  version: number;
};
type FixtureShipmentRow = {
  id: string;
  order_id: string;
  tenant: string;
  carrier: string;
  tracking_id: string;
};

/** Demo ids by role and current state, for GET /test-api/fixtures. */
export async function demoFixtures(db: SqlDatabase): Promise<Record<string, unknown>> {
  const tagsById = new Map(
    DEMO_ORDERS.map((d) => [demoId('ord_', d.label), { label: d.label, tags: d.tags }]),
  );
  const rows = await db.query<FixtureOrderRow>(
    'SELECT id, tenant, customer_subject, state, version FROM orders ORDER BY id',
  );
  const shipments = await db.query<FixtureShipmentRow>(
    'SELECT id, order_id, tenant, carrier, tracking_id FROM shipments ORDER BY id',
  );
  const orders = rows.map((row) => ({
    order_id: row.id,
    label: tagsById.get(row.id)?.label ?? null,
    tenant: row.tenant,
    owner: principalNameOf(row.tenant, row.customer_subject),
    owner_subject: row.customer_subject,
    fulfilment_state: row.state,
    version: Number(row.version),
    tags: tagsById.get(row.id)?.tags ?? [],
  }));
  const byState: Record<string, string[]> = {};
  const byOwner: Record<string, string[]> = {};
  for (const o of orders) {
    byState[o.fulfilment_state] = [...(byState[o.fulfilment_state] ?? []), o.order_id];
    if (o.owner) byOwner[o.owner] = [...(byOwner[o.owner] ?? []), o.order_id];
  }
  const ownerOf = new Map(orders.map((o) => [o.order_id, o.owner]));
  return {
    orders: {
      all: orders,
      by_state: byState,
      by_owner: byOwner,
      shipments: shipments.map((s) => ({
        shipment_id: s.id,
        order_id: s.order_id,
        tenant: s.tenant,
        owner: ownerOf.get(s.order_id) ?? null,
        carrier: s.carrier,
        tracking_id: s.tracking_id,
        redirect_eligible: !tagsById.get(s.order_id)?.tags.includes('redirect_not_eligible'),
      })),
      address_samples: ADDRESS_SAMPLES,
    },
  };
}
