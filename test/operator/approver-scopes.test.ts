import { randomUUID } from 'node:crypto';
import { defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import type { ShiftableClock } from 'toolgate/server';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorApi } from '../support/operator-api.ts';

/** Every payout the handler sent, by operation: the effect the scopes guard. */
const sent: string[] = [];
/** Who each sent payout ran as: the requester's whole principal, restored after the approver's answer. */
const ranAs = new Map<
  string,
  { subject: string; groups: readonly string[]; application: string | undefined }
>();

/**
 * A payouts team's tool: every payout waits for a person holding the team's own approver scope, and an
 * unknown outcome is reviewed by a holder of its own review scope, not by any `operations:review` holder.
 */
const payoutsSend = defineTool({
  name: 'payouts_send',
  title: 'Send a payout',
  description: 'Sends a payout to a seller. Test-only tool: the payment rail never says whether it arrived.',
  kind: 'write',
  mutation: 'create',
  externalSystems: ['rail'],
  version: '1.0.0',
  input: z.strictObject({
    seller_id: z.string().min(1).max(40).describe('Seller to pay.'),
    amount_cents: z.number().int().min(1).max(1_000_000).describe('Amount in cents.'),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.strictObject({ payout_id: z.string() }),
  errors: [],
  scopes: ['payouts:write'],
  timeoutMs: 2_000,
  examples: [],
  confirm: {
    when: 'every payout',
    fallback: 'operator',
    approverScope: 'payouts:approve',
    ask: async (input) => ({ message: `Pay ${input.amount_cents} cents to ${input.seller_id}.` }),
  },
  reviewScope: 'payouts:review',
  handler: async (_input, ctx) => {
    sent.push(ctx.operation!.id);
    const { subject, groups = [], application } = ctx.principal;
    ranAs.set(ctx.operation!.id, { subject, groups, application });
    return outcome.unknown<{ payout_id: string }>('OUTCOME_UNKNOWN', 'The rail did not answer.');
  },
  reconcile: async () => ({ settled: false, note: 'the rail has no status query', escalate: true }),
});

/** A write without a question: its operations are nobody's to confirm. */
const payoutsTag = defineTool({
  name: 'payouts_tag',
  title: 'Tag a seller',
  description: 'Tags a seller for the payouts team. Test-only tool.',
  kind: 'write',
  mutation: 'create',
  version: '1.0.0',
  input: z.strictObject({
    seller_id: z.string().min(1).max(40).describe('Seller to tag.'),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.strictObject({ tagged: z.boolean() }),
  errors: [],
  scopes: ['payouts:write'],
  timeoutMs: 2_000,
  examples: [],
  handler: async () => outcome.completed({ tagged: true }),
  reconcile: async () => ({ settled: true, outcome: outcome.completed({ tagged: true }) }),
});

const requester: TokenSubject = {
  sub: 'ops.rae',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: ['payouts:write', 'operations:read'],
  groups: ['payouts-emea', 'sellers-tier-1'],
  application: 'payouts-console',
};
const operator = (sub: string, scopes: string[]): TokenSubject => ({
  sub,
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read', ...scopes],
});
/** Holds the framework's scopes only: may decide other tools' operations, not this one's. */
const plainConfirmer = operator('op.plain', ['operations:confirm']);
const plainReviewer = operator('op.review', ['operations:review']);
const financeApprover = operator('fin.okoro', ['operations:confirm', 'payouts:approve']);
const financeReviewer = operator('fin.lund', ['operations:review', 'payouts:review']);
/** Approvers who confirm and read nothing else of the operator plane. */
const confirmsOnly = (scopes: string[]): TokenSubject => ({
  sub: 'fin.only',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:confirm', ...scopes],
});

describe("a module's approver scopes gate its confirmations and reviews", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ tools: [payoutsSend, payoutsTag], app: { backgroundJobs: false } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const api = operatorApi(() => gw);
  const auditActions = async (operationId: string) =>
    (
      await gw.app.db.query<{ action: string; subject: string }>(
        'SELECT action, subject FROM audit_log WHERE operation_id = ? ORDER BY seq',
        [operationId],
      )
    ).map((row) => `${row.action}:${row.subject}`);

  it('lists the declared scopes beside the framework’s in the resource metadata', async () => {
    const metadata = (await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', gw.origin))
    ).json()) as { scopes_supported: string[] };
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining([
        'payouts:approve',
        'payouts:review',
        'operations:confirm',
        'operations:review',
      ]),
    );
  });

  it('a confirmer without the tool’s approver scope gets 403 and changes nothing; a finance approver confirms', async () => {
    const parked = await gw.callTool(requester, 'payouts_send', {
      seller_id: 'sel_77',
      amount_cents: 12_500,
      idempotency_key: `payout-${randomUUID()}`,
    });
    expect(parked).toMatchObject({ status: 'in_progress', code: 'CONFIRMATION_PENDING' });
    const id = parked.operation_id!;
    const path = `/operator/v1/operations/${id}/confirmation`;

    // The listing says to each token whether it may answer: not without the tool's approver scope.
    const listedFor = async (who: TokenSubject) =>
      ((await api(who, 'GET', '/operator/v1/confirmations')).body.confirmations as Record<string, unknown>[])
        .filter((c) => c.operation_id === id)
        .map((c) => c.may_answer);
    expect(await listedFor(plainConfirmer)).toEqual([false]);
    expect(await listedFor(financeApprover)).toEqual([true]);
    expect(
      await listedFor({
        ...requester,
        scopes: [...requester.scopes, 'operations:confirm', 'payouts:approve'],
      }),
    ).toEqual([false]);

    const refused = await api(plainConfirmer, 'POST', path, { decision: 'confirm' });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('payouts:approve');
    // A refusal is a decision too: it needs the same scope.
    expect((await api(plainConfirmer, 'POST', path, { decision: 'refuse' })).status).toBe(403);
    expect((await gw.operation(id))?.status).toBe('awaiting_confirmation');
    expect(sent).not.toContain(id);
    const [question] = await gw.app.db.query<{ state: string }>(
      'SELECT state FROM operator_confirmations WHERE operation_id = ?',
      [id],
    );
    expect(question?.state).toBe('pending');

    const confirmed = await api(financeApprover, 'POST', path, { decision: 'confirm' });
    expect(confirmed.status).toBe(200);
    expect(sent.filter((op) => op === id)).toHaveLength(1);
    // It ran as the requester, groups and application included, never as the approver.
    expect(ranAs.get(id)).toEqual({
      subject: 'ops.rae',
      groups: ['payouts-emea', 'sellers-tier-1'],
      application: 'payouts-console',
    });
    expect(await auditActions(id)).toContain(`operations_confirmation_answer:${financeApprover.sub}`);
  });

  it('a reviewer without the tool’s review scope gets 403 and the operation stays in review; its own reviewer resolves it', async () => {
    const parked = await gw.callTool(requester, 'payouts_send', {
      seller_id: 'sel_78',
      amount_cents: 900,
      idempotency_key: `payout-${randomUUID()}`,
    });
    const id = parked.operation_id!;
    const confirmed = await api(financeApprover, 'POST', `/operator/v1/operations/${id}/confirmation`, {
      decision: 'confirm',
    });
    expect(confirmed.status).toBe(200);
    expect((await gw.operation(id))?.status).toBe('outcome_unknown');
    (gw.app.clock as ShiftableClock).shift(600_000);
    await gw.app.operations.reconciler.runOnce();
    expect((await gw.operation(id))?.status).toBe('needs_review');

    const decision = { outcome: 'completed', reference: 'RAIL-5', note: 'the rail confirmed by phone' };
    const path = `/operator/v1/operations/${id}/resolve`;
    const refused = await api(plainReviewer, 'POST', path, decision);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('payouts:review');
    expect((await gw.operation(id))?.status).toBe('needs_review');
    expect(await auditActions(id)).not.toContain(`operations_review_resolve:${plainReviewer.sub}`);

    const resolved = await api(financeReviewer, 'POST', path, decision);
    expect(resolved.status).toBe(200);
    expect((await gw.operation(id))?.status).toBe('completed');
    expect(await auditActions(id)).toContain(`operations_review_resolve:${financeReviewer.sub}`);
  });

  it('an approver who only confirms reads the operations it was asked about, and no other', async () => {
    const asked = await gw.callTool(requester, 'payouts_send', {
      seller_id: 'sel_79',
      amount_cents: 300,
      idempotency_key: `payout-${randomUUID()}`,
    });
    const plain = await gw.callTool(requester, 'payouts_tag', {
      seller_id: 'sel_79',
      idempotency_key: `tag-${randomUUID()}`,
    });
    expect(plain.status).toBe('completed');
    const read = (who: TokenSubject, id: string) => api(who, 'GET', `/operator/v1/operations/${id}`);
    const approverRead = await read(confirmsOnly(['payouts:approve']), asked.operation_id!);
    expect(approverRead.status).toBe(200);
    expect(approverRead.body.confirmation).toMatchObject({ tool: 'payouts_send', state: 'pending' });
    // Nothing was asked of anyone about the tag, and the payout's question needs payouts:approve.
    expect((await read(confirmsOnly(['payouts:approve']), plain.operation_id!)).status).toBe(404);
    expect((await read(confirmsOnly([]), asked.operation_id!)).status).toBe(404);
    // A reader of the plane reads both.
    expect((await read(plainConfirmer, plain.operation_id!)).status).toBe(200);
  });

  it('an unknown operation is still 404, not a scope refusal', async () => {
    const missing = await api(plainConfirmer, 'POST', '/operator/v1/operations/op_nothere/confirmation', {
      decision: 'confirm',
    });
    expect(missing.status).toBe(404);
  });
});
