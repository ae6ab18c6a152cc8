import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BillingStack } from './billing-stack.ts';
import type { Envelope } from './gateway-client.ts';

// Gateway, fault proxy and billing service each run in their own process; every assertion about an
// effect reads the service's own SQLite file, never only what the gateway answered.

const INVOICE = 'inv_acme_0001';
const PAID_INVOICE = 'inv_acme_0003';
const isCreditNotePost = ({ method, path }: { method: string; path: string }) =>
  method === 'POST' && path.includes('/credit-notes');

let stack: BillingStack;

beforeAll(async () => {
  stack = await BillingStack.start();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const newKey = (label: string) => `billing-${label}-${randomUUID()}`;

/** Issues a 1 000-cent credit note against the invoice's current version. */
function issueCredit(key: string, version = stack.data.invoice(INVOICE).version): Promise<Envelope> {
  return stack.client.call('billing_issue_credit_note', {
    invoice_id: INVOICE,
    amount_cents: 1_000,
    reason: 'Late delivery goodwill credit',
    expected_invoice_version: version,
    idempotency_key: key,
  });
}

describe('the billing example across process boundaries', () => {
  test('a same-key retry replays the stored outcome; the service holds one credit note', async () => {
    const key = newKey('replay');
    const version = stack.data.invoice(INVOICE).version;
    const first = await issueCredit(key, version);
    expect(first).toMatchObject({ status: 'completed', replayed: false });
    // The same key and arguments, although the invoice has moved on: the stored outcome, no new effect.
    const again = await issueCredit(key, version);
    expect(again.status).toBe('completed');
    expect(again).toMatchObject({ replayed: true, operation_id: first.operation_id, result: first.result });
    expect(stack.data.creditNotesUnderKey(first.operation_id!)).toHaveLength(1);
  });

  test('an answer lost once is recovered by the kit resending the same key: one credit note', async () => {
    const before = stack.data.creditNotes(INVOICE).length;
    stack.proxy.dropResponses(1, isCreditNotePost);
    const answer = await issueCredit(newKey('lost-once'));
    expect(answer).toMatchObject({ status: 'completed', replayed: false });
    expect(stack.data.creditNotesUnderKey(answer.operation_id!)).toHaveLength(1);
    expect(stack.data.creditNotes(INVOICE)).toHaveLength(before + 1);
  });

  test('every answer lost after the commit: outcome_unknown, then reconciled completed with one note', async () => {
    stack.proxy.dropResponses(100, isCreditNotePost);
    const answer = await issueCredit(newKey('lost-always'));
    stack.proxy.clearFaults();
    expect(answer).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN', retryable: true });
    const notes = stack.data.creditNotesUnderKey(answer.operation_id!);
    expect(notes).toHaveLength(1);
    const settled = await stack.client.settled(answer.operation_id!);
    expect(settled.status).toBe('completed');
    expect(settled.outcome?.result).toMatchObject({ credit_note_id: notes[0]!.credit_note_id });
    expect(stack.data.creditNotesUnderKey(answer.operation_id!)).toHaveLength(1);
  });

  test('a request lost before the service saw it: settled as never applied; the fenced key refuses a late copy', async () => {
    const before = stack.data.invoice(INVOICE);
    stack.proxy.dropRequests(100, isCreditNotePost);
    const answer = await issueCredit(newKey('never-arrived'), before.version);
    stack.proxy.clearFaults();
    expect(answer).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
    const settled = await stack.client.settled(answer.operation_id!);
    expect(settled.status).toBe('rejected');
    expect(settled.outcome).toMatchObject({ status: 'rejected', code: 'BILLING_REQUEST_NOT_APPLIED' });
    // A delayed copy of the lost request, carrying the same key, can no longer take effect.
    const late = await stack.serviceRequest(
      `/invoices/${INVOICE}/credit-notes`,
      { amount_cents: 1_000, reason: 'Late delivery goodwill credit', expected_version: before.version },
      { 'idempotency-key': answer.operation_id! },
    );
    expect([late.status, await late.json()]).toEqual([409, { error: 'key_fenced' }]);
    expect(stack.data.creditNotesUnderKey(answer.operation_id!)).toHaveLength(0);
    expect(stack.data.invoice(INVOICE)).toEqual(before);
  });

  test('the service killed after committing and restarted: the operation settles once', async () => {
    await stack.restartService({ pauseAfterCommitMs: 20_000 });
    const before = stack.data.creditNotes(INVOICE).length;
    const pending = issueCredit(newKey('killed'));
    await expect.poll(() => stack.data.creditNotes(INVOICE).length, { timeout: 10_000 }).toBe(before + 1);
    await stack.service.kill();
    const answer = await pending;
    expect(answer).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
    await stack.startService();
    const settled = await stack.client.settled(answer.operation_id!);
    expect(settled.status).toBe('completed');
    expect(stack.data.creditNotesUnderKey(answer.operation_id!)).toHaveLength(1);
    expect(stack.data.creditNotes(INVOICE)).toHaveLength(before + 1);
  });

  test('the service down before the call: DEPENDENCY_UNAVAILABLE; later the same key executes once', async () => {
    const key = newKey('down');
    const version = stack.data.invoice(INVOICE).version;
    await stack.proxy.refuse();
    await stack.service.stop();
    const refused = await issueCredit(key, version);
    expect(refused).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
    expect(stack.data.creditNotesUnderKey(refused.operation_id!)).toHaveLength(0);

    await stack.startService();
    await stack.proxy.accept();
    const retried = await issueCredit(key, version);
    expect(retried).toMatchObject({
      status: 'completed',
      replayed: false,
      operation_id: refused.operation_id,
    });
    expect(stack.data.creditNotesUnderKey(retried.operation_id!)).toHaveLength(1);
  });

  test('a stale expected_invoice_version is rejected as INVOICE_VERSION_CHANGED and changes nothing', async () => {
    const invoice = stack.data.invoice(INVOICE);
    const before = stack.data.creditNotes(INVOICE).length;
    const answer = await issueCredit(newKey('stale'), invoice.version - 1);
    expect(answer).toMatchObject({ status: 'rejected', code: 'INVOICE_VERSION_CHANGED', ok: false });
    expect(stack.data.creditNotes(INVOICE)).toHaveLength(before);
    expect(stack.data.invoice(INVOICE)).toEqual(invoice);
  });

  test('a refund request is submitted, decided by finance, and the decision shows on the invoice', async () => {
    const answer = await stack.client.call('billing_request_refund', {
      invoice_id: PAID_INVOICE,
      amount_cents: 2_500,
      reason: 'Duplicate charge on the card',
      idempotency_key: newKey('refund'),
    });
    expect(answer).toMatchObject({ status: 'submitted', ok: true, result: { status: 'pending' } });
    const refundId = String(answer.result?.refund_request_id);
    expect(stack.data.refundRequests(PAID_INVOICE)).toEqual([
      { refund_request_id: refundId, status: 'pending', idempotency_key: answer.operation_id },
    ]);

    const decided = await stack.serviceRequest(`/admin/refund-requests/${refundId}/decide`, {
      decision: 'approved',
    });
    expect(decided.status).toBe(200);
    const invoice = await stack.client.call('billing_get_invoice', { invoice_id: PAID_INVOICE });
    expect(invoice.status).toBe('completed');
    expect(invoice.result?.refund_requests).toEqual([
      { refund_request_id: refundId, amount_cents: 2_500, status: 'approved' },
    ]);
  });
});
