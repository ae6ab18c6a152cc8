import type { OutcomeEnvelope } from 'toolgate';
import type { TokenSubject } from 'toolgate/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';
import { executions, reconcileCalls, TEST_SYSTEM, testDomain } from '../support/test-domain.ts';
import { modernRequest } from '../tasks/extension-client.ts';

const TOOL = 'testing_credit_approved';
const ALICE = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
} as const;
/** Alice again, holding the approver's scope too: still the requester of her own calls. */
const ALICE_APPROVER = { ...ALICE, scopes: [...ALICE.scopes, 'operations:confirm'] } as const;
const approver = (sub: string, tenant = 'tenant-a'): TokenSubject => ({
  sub,
  tenant,
  actor: 'operator',
  scopes: ['operations:confirm', 'operations:read'],
});
const BOB = approver('bob');
const CAROL = approver('carol');
const DAY_MS = 24 * 60 * 60 * 1000;

const creditArgs = (key: string, extra: Record<string, unknown> = {}) => ({
  account: 'acc-9',
  amount: 5_000,
  idempotency_key: key,
  ...extra,
});

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `the operator fallback: an approver confirms in the console (${target.dialect})`,
    () => {
      /** What the bank says about the account when the question is asked (null: it cannot say). */
      let bank: Record<string, unknown> | null = { holder: 'Alice A.' };
      const suite = gatewayOnStore(target, { modules: [testDomain({ accountFacts: () => bank })] });
      beforeEach(() => {
        bank = { holder: 'Alice A.' };
      });
      const db = () => suite.gw.app.db;
      const ran = () => executions(db(), 'execute');
      const credits = () => db().query('SELECT request_id, account, amount FROM test_bank_credits');
      const ledger = () =>
        db().query<{ ref: string }>('SELECT ref FROM effects WHERE system = ?', [TEST_SYSTEM]);
      const parkedRows = () =>
        db().query<Record<string, unknown>>('SELECT * FROM operator_confirmations ORDER BY operation_id');
      const audit = (operationId: string) =>
        db().query<{ subject: string; action: string; status: string; code: string | null; detail: string }>(
          'SELECT subject, action, status, code, detail FROM audit_log WHERE operation_id = ? ORDER BY seq',
          [operationId],
        );
      const confirmationsOf = async (operationId: string) =>
        (await audit(operationId)).map((a) => ({
          subject: a.subject,
          action: a.action,
          status: a.status,
          confirmation: (JSON.parse(a.detail) as { confirmation?: Record<string, unknown> }).confirmation,
        }));

      async function api(who: TokenSubject, method: string, path: string, body?: unknown) {
        const response = await fetch(new URL(path, suite.gw.origin), {
          method,
          headers: {
            authorization: `Bearer ${await suite.gw.tokenFor(who)}`,
            'content-type': 'application/json',
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      }
      const answer = (who: TokenSubject, id: string, body: unknown) =>
        api(who, 'POST', `/operator/v1/operations/${id}/confirmation`, body);

      /** A call from a client that cannot ask (2025-11-25), parked for an approver; its envelope. */
      async function parked(key: string, extra: Record<string, unknown> = {}): Promise<OutcomeEnvelope> {
        const envelope = await suite.gw.callTool(ALICE, TOOL, creditArgs(key, extra));
        expect(envelope).toMatchObject({
          status: 'in_progress',
          code: 'CONFIRMATION_PENDING',
          category: 'confirmation',
          ok: false,
          replayed: false,
        });
        expect(envelope.operation_id).toMatch(/^op_/);
        return envelope;
      }

      it('parks the call: the key is reserved, the question stored, nothing executed', async () => {
        const first = await parked('approve-park-000001', { memo: 'rent' });
        const id = first.operation_id!;
        expect(first.message).toContain('Credit 5000 cents to account acc-9.');
        expect(first.message).toContain('An approver must confirm');
        expect(first.resolution).toMatch(/Poll operations_get/);
        expect(await ran()).toEqual([]);
        expect(await credits()).toEqual([]);

        const record = await suite.gw.operation(id);
        expect(record).toMatchObject({ status: 'awaiting_confirmation', leaseExpiresAt: null, attempts: 1 });
        const [row] = await parkedRows();
        // The question waits 24 hours by default, and the record with it.
        expect(Number(row!.expires_at) - Number(row!.asked_at)).toBe(DAY_MS);
        expect(record!.expiresAt).toBe(Number(row!.expires_at));
        expect(row).toMatchObject({
          operation_id: id,
          tenant: 'tenant-a',
          requester: 'alice',
          state: 'pending',
        });
        expect(JSON.parse(String(row!.principal))).toEqual({
          subject: 'alice',
          tenant: 'tenant-a',
          actor: 'customer',
          scopes: ['testing:write', 'operations:read'],
          groups: [],
        });
        expect(JSON.parse(String(row!.arguments))).toMatchObject(
          creditArgs('approve-park-000001', { memo: 'rent' }),
        );
        expect(JSON.parse(String(row!.question))).toMatchObject({
          message: 'Credit 5000 cents to account acc-9.',
          details: { account: 'acc-9', amount: 5_000 },
          choice: { title: 'Statement line' },
          facts: { memo: 'rent', holder: 'Alice A.' },
        });
        expect(await confirmationsOf(id)).toEqual([
          {
            subject: 'alice',
            action: TOOL,
            status: 'in_progress',
            confirmation: { via: 'operator', outcome: 'asked', digest: row!.digest },
          },
        ]);

        // A retry of the key joins it: the same answer, the same operation, nothing executed.
        const retry = await suite.gw.callTool(
          ALICE,
          TOOL,
          creditArgs('approve-park-000001', { memo: 'rent' }),
        );
        expect(retry).toMatchObject({
          status: 'in_progress',
          code: 'CONFIRMATION_PENDING',
          operation_id: id,
        });
        // Another request under the key conflicts as usual.
        const other = await suite.gw.callTool(
          ALICE,
          TOOL,
          creditArgs('approve-park-000001', { amount: 9_000 }),
        );
        expect(other).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT', operation_id: id });
        expect(await ran()).toEqual([]);
        expect(await parkedRows()).toHaveLength(1);

        // The client's poll says it waits for an approver.
        const poll = await suite.gw.callTool(ALICE, 'operations_get', { operation_id: id });
        expect(poll.result).toMatchObject({
          status: 'in_progress',
          outcome: { status: 'in_progress', code: 'CONFIRMATION_PENDING', operation_id: id },
        });
        expect(poll.message).toContain('waits for an approver');

        const metric = await suite.gw.app.metrics.registry.getSingleMetricAsString(
          'toolgate_confirmations_total',
        );
        expect(metric).toMatch(new RegExp(`tool="${TOOL}",via="operator",outcome="asked"\\} 1`));
      });

      it('is neither abandoned nor reconciled nor queued for review while it waits', async () => {
        const { operation_id: id } = await parked('approve-reconcile-01');
        suite.clock.shift(60 * 60 * 1000);
        const pass = await suite.gw.app.operations.reconciler.runOnce();
        expect(pass).toEqual({ abandoned: 0, settled: 0, deferred: 0, escalated: 0 });
        expect(await reconcileCalls(db())).toEqual([]);
        expect(await suite.gw.app.operations.reviews.pending('tenant-a')).toEqual([]);
        const retry = await suite.gw.callTool(ALICE, TOOL, creditArgs('approve-reconcile-01'));
        expect(retry).toMatchObject({
          status: 'in_progress',
          code: 'CONFIRMATION_PENDING',
          operation_id: id,
        });
        expect((await suite.gw.operation(id!))?.status).toBe('awaiting_confirmation');
        expect(await ran()).toEqual([]);
        // Monitoring sees it wait: the backlog gauges count parked calls apart from reviews.
        const { body } = await suite.gw.app.metrics.exposition();
        const parkedCount = /^toolgate_operations_awaiting\{status="awaiting_confirmation"\} (\d+)$/m.exec(
          body,
        );
        expect(Number(parkedCount?.[1])).toBeGreaterThanOrEqual(1);
        expect(body).toMatch(
          /^toolgate_operations_awaiting_oldest_age_seconds\{status="awaiting_confirmation"\} /m,
        );
      });

      it('an approver sees the question as the tool built it, confirms with a choice, and it runs once as the requester', async () => {
        const { operation_id: id } = await parked('approve-confirm-0001', { memo: 'rent' });
        const listed = await api(BOB, 'GET', '/operator/v1/confirmations');
        expect(listed.status).toBe(200);
        expect(listed.body.confirmations).toEqual([
          expect.objectContaining({
            operation_id: id,
            tool: TOOL,
            requester: 'alice',
            message: 'Credit 5000 cents to account acc-9.',
            details: { account: 'acc-9', amount: 5_000 },
            choice: {
              title: 'Statement line',
              options: [
                { value: 'print', title: 'Print "rent"' },
                { value: 'omit', title: 'Leave it off' },
              ],
            },
            state: 'pending',
          }),
        ]);
        expect(listed.body.confirmations[0]).not.toHaveProperty('facts');

        // A choice that was not offered, or none, is refused and changes nothing.
        for (const bad of [{ decision: 'confirm' }, { decision: 'confirm', choice: 'shout' }]) {
          const refused = await answer(BOB, id!, bad);
          expect(refused.status).toBe(400);
          expect(refused.body.problems[0].parameter).toBe('choice');
        }
        expect((await answer(BOB, id!, { decision: 'maybe' })).status).toBe(400);
        expect((await suite.gw.operation(id!))?.status).toBe('awaiting_confirmation');
        expect(await ran()).toEqual([]);

        const done = await answer(BOB, id!, {
          decision: 'confirm',
          choice: 'omit',
          note: 'checked the account',
        });
        expect(done.status).toBe(200);
        expect(done.body.outcome).toMatchObject({ status: 'completed', operation_id: id, replayed: false });
        expect(done.body.confirmation).toMatchObject({
          state: 'accepted',
          answered_by: 'bob',
          chosen: 'omit',
        });

        const executed = await ran();
        expect(executed).toHaveLength(1);
        expect(executed[0]).toMatchObject({ operation_id: id, subject: 'alice', tool: TOOL });
        expect(executed[0]!.confirmed).toMatch(/^operator:omit:[0-9a-f]{24}$/);
        expect(await credits()).toEqual([{ request_id: id, account: 'acc-9', amount: 5_000 }]);
        expect(await ledger()).toHaveLength(1);

        // The client's poll sees the result; a retry of the key replays it; nothing runs again.
        const poll = await suite.gw.callTool(ALICE, 'operations_get', { operation_id: id! });
        expect(poll.result).toMatchObject({ status: 'completed', outcome: { status: 'completed' } });
        const replay = await suite.gw.callTool(
          ALICE,
          TOOL,
          creditArgs('approve-confirm-0001', { memo: 'rent' }),
        );
        expect(replay).toMatchObject({ status: 'completed', replayed: true, operation_id: id });
        expect(await ran()).toHaveLength(1);

        const digest = executed[0]!.confirmed!.split(':')[2];
        expect(await confirmationsOf(id!)).toEqual([
          expect.objectContaining({
            subject: 'alice',
            status: 'in_progress',
            confirmation: expect.objectContaining({ outcome: 'asked' }),
          }),
          {
            subject: 'bob',
            action: 'operations_confirmation_answer',
            status: 'in_progress',
            confirmation: { via: 'operator', outcome: 'accepted', digest, answered_by: 'bob' },
          },
          {
            subject: 'alice',
            action: TOOL,
            status: 'completed',
            confirmation: { via: 'operator', outcome: 'accepted', digest, answered_by: 'bob' },
          },
          expect.objectContaining({ subject: 'alice', status: 'completed', confirmation: undefined }),
        ]);
        // The timeline in the operator API holds the same entries.
        const detail = await api(BOB, 'GET', `/operator/v1/operations/${id}`);
        expect(detail.body.confirmation).toMatchObject({ state: 'accepted', answered_by: 'bob' });
        expect(detail.body.audit.map((a: { action: string }) => a.action)).toEqual([
          TOOL,
          'operations_confirmation_answer',
          TOOL,
          TOOL,
        ]);
        const metric = await suite.gw.app.metrics.registry.getSingleMetricAsString(
          'toolgate_confirmations_total',
        );
        expect(metric).toMatch(new RegExp(`tool="${TOOL}",via="operator",outcome="accepted"\\} 1`));
        // Answered, the question is no longer listed, and cannot be answered again.
        expect((await api(BOB, 'GET', '/operator/v1/confirmations')).body.confirmations).toEqual([]);
        const again = await answer(CAROL, id!, { decision: 'refuse' });
        expect(again).toMatchObject({
          status: 409,
          body: { error: 'not_awaiting_confirmation', status: 'completed' },
        });
        expect(await ran()).toHaveLength(1);
      });

      it('the requester cannot confirm their own call, whatever scopes they hold', async () => {
        const { operation_id: id } = await parked('approve-own-call-001');
        const own = await answer(ALICE_APPROVER, id!, { decision: 'confirm' });
        expect(own).toMatchObject({ status: 403, body: { error: 'four_eyes', requester: 'alice' } });
        const refuse = await answer(ALICE_APPROVER, id!, { decision: 'refuse' });
        expect(refuse.status).toBe(403);
        // Without the scope, nobody may answer; another tenant's approver does not even see it.
        expect(
          (await answer({ ...BOB, scopes: ['operations:read'] }, id!, { decision: 'confirm' })).status,
        ).toBe(403);
        expect((await answer(approver('dave', 'tenant-b'), id!, { decision: 'confirm' })).status).toBe(404);
        expect(
          (await api(approver('dave', 'tenant-b'), 'GET', '/operator/v1/confirmations')).body.confirmations,
        ).toEqual([]);
        expect((await suite.gw.operation(id!))?.status).toBe('awaiting_confirmation');
        expect((await parkedRows())[0]).toMatchObject({ state: 'pending', answered_by: null });
        expect((await audit(id!)).map((a) => a.action)).toEqual([TOOL]);
        expect(await ran()).toEqual([]);
      });

      it('refused, it settles rejected / CONFIRMATION_DECLINED and nothing runs', async () => {
        const { operation_id: id } = await parked('approve-refuse-00001');
        const refused = await answer(BOB, id!, { decision: 'refuse', note: 'not this account' });
        expect(refused.status).toBe(200);
        expect(refused.body.outcome).toMatchObject({
          status: 'rejected',
          code: 'CONFIRMATION_DECLINED',
          operation_id: id,
        });
        expect(refused.body.confirmation).toMatchObject({
          state: 'declined',
          answered_by: 'bob',
          note: 'not this account',
        });
        expect(await ran()).toEqual([]);
        expect(await credits()).toEqual([]);
        expect((await suite.gw.operation(id!))?.status).toBe('rejected');
        const retry = await suite.gw.callTool(ALICE, TOOL, creditArgs('approve-refuse-00001'));
        expect(retry).toMatchObject({
          status: 'rejected',
          code: 'CONFIRMATION_DECLINED',
          replayed: true,
          operation_id: id,
        });
        const poll = await suite.gw.callTool(ALICE, 'operations_get', { operation_id: id! });
        expect(poll.result).toMatchObject({ status: 'rejected', outcome: { code: 'CONFIRMATION_DECLINED' } });
        expect((await confirmationsOf(id!)).slice(1)).toEqual([
          {
            subject: 'bob',
            action: 'operations_confirmation_answer',
            status: 'rejected',
            confirmation: expect.objectContaining({
              via: 'operator',
              outcome: 'declined',
              answered_by: 'bob',
            }),
          },
          expect.objectContaining({ subject: 'alice', status: 'rejected' }),
        ]);
        expect((await answer(CAROL, id!, { decision: 'confirm' })).status).toBe(409);
        expect(await ran()).toEqual([]);
        const metric = await suite.gw.app.metrics.registry.getSingleMetricAsString(
          'toolgate_confirmations_total',
        );
        expect(metric).toMatch(new RegExp(`tool="${TOOL}",via="operator",outcome="declined"\\} 1`));
      });

      it('unanswered past its expiry, it settles rejected / CONFIRMATION_EXPIRED when next touched', async () => {
        const polled = (await parked('approve-expire-poll1')).operation_id!;
        const retried = (await parked('approve-expire-retry')).operation_id!;
        const listed = (await parked('approve-expire-list1')).operation_id!;
        const swept = (await parked('approve-expire-sweep')).operation_id!;
        suite.clock.shift(DAY_MS - 1_000);
        expect((await api(BOB, 'GET', '/operator/v1/confirmations')).body.confirmations).toHaveLength(4);
        suite.clock.shift(2_000);

        const poll = await suite.gw.callTool(ALICE, 'operations_get', { operation_id: polled });
        expect(poll.result).toMatchObject({ status: 'rejected', outcome: { code: 'CONFIRMATION_EXPIRED' } });
        const retry = await suite.gw.callTool(ALICE, TOOL, creditArgs('approve-expire-retry'));
        expect(retry).toMatchObject({
          status: 'rejected',
          code: 'CONFIRMATION_EXPIRED',
          operation_id: retried,
        });
        const late = await answer(BOB, listed, { decision: 'confirm' });
        expect(late).toMatchObject({
          status: 409,
          body: { status: 'rejected', confirmation: { state: 'expired' } },
        });
        expect(await suite.gw.app.operations.confirmations.expireDue(suite.clock.now(), 20)).toBe(1);
        expect((await api(BOB, 'GET', '/operator/v1/confirmations')).body.confirmations).toEqual([]);

        for (const id of [polled, retried, listed, swept]) {
          expect(await suite.gw.operation(id)).toMatchObject({
            status: 'rejected',
            envelope: { code: 'CONFIRMATION_EXPIRED' },
          });
          expect((await confirmationsOf(id))[1]).toEqual({
            subject: 'toolgate',
            action: 'operations_confirmation_answer',
            status: 'rejected',
            confirmation: expect.objectContaining({ via: 'operator', outcome: 'expired' }),
          });
        }
        expect((await parkedRows()).map((r) => r.state)).toEqual([
          'expired',
          'expired',
          'expired',
          'expired',
        ]);
        expect(await ran()).toEqual([]);
        expect(await credits()).toEqual([]);
      });

      it('confirmed after what the question found changed: nothing runs, and a retry parks it as it is now', async () => {
        const { operation_id: id } = await parked('approve-changed-0001');
        bank = null;
        const unsure = await answer(BOB, id!, { decision: 'confirm' });
        expect(unsure).toMatchObject({ status: 503, body: { error: 'cannot_check' } });
        expect((await suite.gw.operation(id!))?.status).toBe('awaiting_confirmation');
        expect((await parkedRows())[0]).toMatchObject({ state: 'pending' });

        bank = { holder: 'Mallory M.' };
        const changed = await answer(BOB, id!, { decision: 'confirm' });
        expect(changed).toMatchObject({
          status: 409,
          body: {
            error: 'confirmation_mismatch',
            outcome: { status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: id },
            confirmation: { state: 'mismatch', answered_by: 'bob' },
          },
        });
        expect(await ran()).toEqual([]);
        expect(await credits()).toEqual([]);
        expect((await confirmationsOf(id!))[1]).toMatchObject({
          subject: 'bob',
          status: 'failed',
          confirmation: { via: 'operator', outcome: 'mismatch' },
        });

        // The same call again is parked again, with the question as it is now, under the same operation.
        const again = await suite.gw.callTool(ALICE, TOOL, creditArgs('approve-changed-0001'));
        expect(again).toMatchObject({
          status: 'in_progress',
          code: 'CONFIRMATION_PENDING',
          operation_id: id,
        });
        const [row] = await parkedRows();
        expect(row).toMatchObject({ state: 'pending', answered_by: null });
        expect(JSON.parse(String(row!.question)).facts).toEqual({ holder: 'Mallory M.' });
        expect((await answer(BOB, id!, { decision: 'confirm' })).status).toBe(200);
        const executed = await ran();
        expect(executed).toHaveLength(1);
        expect(executed[0]).toMatchObject({ operation_id: id, subject: 'alice' });
      });

      it('two approvers confirming at once: exactly one execution, one credit', async () => {
        const { operation_id: id } = await parked('approve-race-000001');
        const [b, c] = await Promise.all([
          answer(BOB, id!, { decision: 'confirm' }),
          answer(CAROL, id!, { decision: 'confirm' }),
        ]);
        expect([b.status, c.status].sort()).toEqual([200, 409]);
        const winner = b.status === 200 ? 'bob' : 'carol';
        expect(await ran()).toHaveLength(1);
        expect(await credits()).toHaveLength(1);
        expect(await ledger()).toHaveLength(1);
        expect((await parkedRows())[0]).toMatchObject({ state: 'accepted', answered_by: winner });
        const answers = (await audit(id!)).filter((a) => a.action === 'operations_confirmation_answer');
        expect(answers.map((a) => a.subject)).toEqual([winner]);
      });

      it('a confirm racing a refusal: one of them decides, and the world agrees with it', async () => {
        const { operation_id: id } = await parked('approve-race-refuse1');
        const [b, c] = await Promise.all([
          answer(BOB, id!, { decision: 'confirm' }),
          answer(CAROL, id!, { decision: 'refuse' }),
        ]);
        expect([b.status, c.status].sort()).toEqual([200, 409]);
        const confirmed = b.status === 200;
        expect(await ran()).toHaveLength(confirmed ? 1 : 0);
        expect((await suite.gw.operation(id!))?.status).toBe(confirmed ? 'completed' : 'rejected');
      });

      it('on a 2026-07-28 client without elicitation that accepts tasks, the task is the parked operation', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const created = await modernRequest(suite.gw.url, token, 'tools/call', {
          name: TOOL,
          arguments: creditArgs('approve-task-0000001'),
        });
        expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
        const taskId = created.body.result!.taskId as string;
        expect(created.body.result!.statusMessage).toMatch(/^Awaiting confirmation/);
        expect((await suite.gw.operation(taskId))?.status).toBe('awaiting_confirmation');
        expect((await answer(BOB, taskId, { decision: 'confirm' })).status).toBe(200);
        const task = (await modernRequest(suite.gw.url, token, 'tasks/get', { taskId })).body.result!;
        expect(task).toMatchObject({ status: 'completed', taskId });
        expect((task.result as { structuredContent: OutcomeEnvelope }).structuredContent).toMatchObject({
          status: 'completed',
          operation_id: taskId,
        });
        expect(await ran()).toHaveLength(1);
      });

      it('a small credit needs nobody: it runs at once', async () => {
        const small = await suite.gw.callTool(
          ALICE,
          TOOL,
          creditArgs('approve-small-000001', { amount: 10 }),
        );
        expect(small).toMatchObject({ status: 'completed' });
        expect(await parkedRows()).toEqual([]);
        expect(await ran()).toHaveLength(1);
      });
    },
  );
}
