import { simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import type { PostalAddress } from '../../src/orders/postal-address.ts';
import { newKey, type OrdersHarness, orderId, startOrders } from './orders-app.ts';

const sqlite = storeTargets.find((t) => t.dialect === 'sqlite')!;

/** Fragments that identify an address; none may appear in a log line or a metric. */
function fragments(address: PostalAddress): string[] {
  return [address.recipient_name, address.address_line_1, address.locality].map((s) => s.toLowerCase());
}

describe('addresses stay out of logs and metrics', () => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrders(sqlite);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('across completed, confirmation, unknown, reconciled, redirected and invalid calls at debug level', async () => {
    const change = (label: string, address: object, version: number) =>
      h.call('acme-customer-alice', 'orders_change_unshipped_address', {
        order_id: orderId(label),
        expected_order_version: version,
        new_address: address,
        idempotency_key: newKey(),
      });
    expect((await change('alice-editable', ADDRESS_SAMPLES.cosmetic_us!, 3)).status).toBe('completed');
    expect((await change('alice-editable-2', ADDRESS_SAMPLES.material_street_us!, 2)).status).toBe(
      'requires_confirmation',
    );
    simulationWorld(h.app.db).faults.arm({ target: 'warehouse', fault: 'drop_response_after_apply' });
    expect((await change('alice-pending', ADDRESS_SAMPLES.suggested_us!, 1)).status).toBe('outcome_unknown');
    await h.reconcile();
    expect(
      (await change('alice-payment-na', { ...ADDRESS_SAMPLES.clean_gb, country_code: 'gb' }, 2)).code,
    ).toBe('INVALID_ARGUMENT');
    const redirect = await h.call('acme-support-sam', 'shipments_request_redirect', {
      order_id: orderId('carol-in-transit'),
      new_address: ADDRESS_SAMPLES.clean_de,
      idempotency_key: newKey(),
    });
    expect(redirect.status).toBe('submitted');

    const logs = h.logLines.join('').toLowerCase();
    expect(logs).toContain('orders_change_unshipped_address');
    expect(logs).toContain('[redacted]');
    const metrics = (await h.app.metrics.exposition()).body.toLowerCase();
    const used = [
      ADDRESS_SAMPLES.cosmetic_us!,
      ADDRESS_SAMPLES.material_street_us!,
      ADDRESS_SAMPLES.suggested_us!,
      ADDRESS_SAMPLES.clean_gb!,
      ADDRESS_SAMPLES.clean_de!,
      {
        ...ADDRESS_SAMPLES.cosmetic_us!,
        recipient_name: 'Alice Moreau',
        address_line_1: '350 Oak Street',
        locality: 'Columbus',
      },
    ];
    for (const fragment of used.flatMap(fragments)) {
      expect(logs, fragment).not.toContain(fragment);
      expect(metrics, fragment).not.toContain(fragment);
    }
  });
});
