import { confirmingClient, startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Payments, type Refund, refundsIssue } from './refunds-tool.ts';

/** The payment service as the test holds it: one order, and the refunds made, one per operation. */
function paymentsInMemory() {
  const refunds = new Map<string, Refund>();
  const payments: Payments = {
    async orderOf(tenant, orderId) {
      return tenant === 'acme' && orderId === 'ord_0a1b2c3d'
        ? { paid_cents: 40_000, card_last4: '4242' }
        : null;
    },
    async refund(operationId, _orderId, amountCents, to) {
      const made = refunds.get(operationId) ?? {
        refund_id: `rf_${refunds.size + 1}`,
        amount_cents: amountCents,
        to,
      };
      refunds.set(operationId, made);
      return made;
    },
    async refundBy(operationId) {
      return refunds.get(operationId) ?? null;
    },
  };
  return { payments, refunds };
}

const ada = { sub: 'ada', tenant: 'acme', actor: 'customer' as const, scopes: ['refunds:write'] };
const refundCall = (amount_cents: number, idempotency_key: string) => ({
  name: 'refunds_issue',
  arguments: { order_id: 'ord_0a1b2c3d', amount_cents, idempotency_key },
});

describe('a refund the user confirms', () => {
  const { payments, refunds } = paymentsInMemory();
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ tools: [refundsIssue(payments)] });
  });
  afterAll(() => gateway.close());
  beforeEach(() => refunds.clear());

  test('accepted with a choice, it runs once as chosen; the retry replays it without asking again', async () => {
    const { client, asked } = await confirmingClient(gateway.url, await gateway.tokenFor(ada), [
      { action: 'accept', choice: 'store_credit' },
    ]);
    const first = await client.callTool(refundCall(15_000, 'refund-accept-000001'));
    expect(first.structuredContent).toMatchObject({ status: 'completed', result: { to: 'store_credit' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain('Refund EUR 150.00 of order ord_0a1b2c3d?');
    expect(asked[0]!.requestedSchema).toMatchObject({ required: ['confirm', 'choice'] });

    const retry = await client.callTool(refundCall(15_000, 'refund-accept-000001'));
    expect(retry.structuredContent).toMatchObject({ status: 'completed', replayed: true });
    expect(asked).toHaveLength(1);
    expect([...refunds.values()]).toEqual([{ refund_id: 'rf_1', amount_cents: 15_000, to: 'store_credit' }]);
    await client.close();
  });

  test('declined, nothing runs and the key stays free for when the user changes their mind', async () => {
    const { client, asked } = await confirmingClient(gateway.url, await gateway.tokenFor(ada), [
      { action: 'decline' },
      { action: 'accept', choice: 'card' },
    ]);
    const declined = await client.callTool(refundCall(15_000, 'refund-decline-00001'));
    expect(declined.structuredContent).toMatchObject({
      status: 'rejected',
      code: 'CONFIRMATION_DECLINED',
      operation_id: null,
    });
    expect(refunds.size).toBe(0);

    const asAgain = await client.callTool(refundCall(15_000, 'refund-decline-00001'));
    expect(asAgain.structuredContent).toMatchObject({ status: 'completed', replayed: false });
    expect(asked).toHaveLength(2);
    expect([...refunds.values()]).toEqual([{ refund_id: 'rf_1', amount_cents: 15_000, to: 'card' }]);
    await client.close();
  });

  test('a small refund asks nobody and goes back to the card', async () => {
    const { client, asked } = await confirmingClient(gateway.url, await gateway.tokenFor(ada), [
      { action: 'decline' },
    ]);
    const answer = await client.callTool(refundCall(2_500, 'refund-small-0000001'));
    expect(answer.structuredContent).toMatchObject({ status: 'completed', result: { to: 'card' } });
    expect(asked).toEqual([]);
    expect(refunds.size).toBe(1);
    await client.close();
  });

  test('a client that cannot ask its user is refused, and nothing runs', async () => {
    // gateway.callTool speaks MCP 2025-11-25, which has no way to put the question to the user.
    const answer = await gateway.callTool(
      ada,
      'refunds_issue',
      refundCall(15_000, 'refund-old-client-01').arguments,
    );
    expect(answer).toMatchObject({ status: 'failed', code: 'CONFIRMATION_UNAVAILABLE' });
    expect(refunds.size).toBe(0);
  });
});
