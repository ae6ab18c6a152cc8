import { simulationWorld } from '@toolgate/simulation';
import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { resolveAsOperator } from '../../../../test/support/operator-review.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { workitemsDomain } from '../../src/workitems/workitems-module.ts';
import { newKey } from './workitems-app.ts';

const MEMBER = 'workitems_member';
const TITLE = 'Replace the failing disk in backup node 3';

/**
 * Seed 000/002: an unknown outcome is reconciled before anything creates a new operation. While a
 * commit's answer is lost, committing the same work again (another draft, a new key, even with
 * confirm_new_item) sends nothing; once an operator settles it, a confirmed separate item may go.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a commit while an earlier one is unknown, on ${target.dialect}`, () => {
    const on = gatewayOnStore(target, { modules: [workitemsDomain] });

    const draft = async () => {
      const created = await on.gw.callTool(MEMBER, 'workitems_create_draft', {
        project_id: 'OPS',
        title: TITLE,
        idempotency_key: newKey('draft'),
      });
      return (created.result as { draft: { draft_id: string } }).draft.draft_id;
    };
    /** A commit from a client whose user accepts what they are asked (every commit asks). */
    const commitAsking = async (draftId: string, confirm: boolean) => {
      const { client, asked } = await confirmingClient(on.gw.url, await on.gw.tokenFor(MEMBER), [
        { action: 'accept' },
      ]);
      const answer = await client.callTool({
        name: 'workitems_commit',
        arguments: {
          draft_id: draftId,
          idempotency_key: newKey('commit'),
          ...(confirm ? { confirm_new_item: true } : {}),
        },
      });
      await client.close();
      return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
    };
    const commit = async (draftId: string, confirm = false) =>
      (await commitAsking(draftId, confirm)).envelope;
    const creates = () =>
      simulationWorld(on.gw.app.db).ledger.list({ system: 'tracker', action: 'create_item' });
    const draftStates = () =>
      on.gw.app.db.query<{ state: string }>(
        'SELECT state FROM workitems_drafts ORDER BY created_at, draft_id',
      );

    it('the same work cannot be committed again, even confirmed, until the lost commit is settled', async () => {
      simulationWorld(on.gw.app.db).faults.arm({
        target: 'tracker',
        fault: 'drop_response_after_apply',
        match: { action: 'create_item' },
      });
      const lost = await commit(await draft());
      expect(lost.status).toBe('outcome_unknown');
      const lostOp = lost.operation_id!;

      const second = await draft();
      const unconfirmed = await commit(second);
      expect(unconfirmed).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      expect(unconfirmed.resolution).toContain(`operations_get with operation ${lostOp}`);
      expect(unconfirmed.resolution).toContain('confirm_new_item does not apply');

      const confirmed = await commit(second, true);
      expect(confirmed).toMatchObject({
        ok: false,
        status: 'rejected',
        code: 'COMMIT_OUTCOME_PENDING',
        category: 'state',
        retryable: false,
      });
      expect(confirmed.message).toContain(lostOp);
      expect(confirmed.resolution).toContain(`operations_get with operation ${lostOp}`);
      expect(await creates()).toHaveLength(1);
      expect(await draftStates()).toEqual([{ state: 'committing' }, { state: 'draft' }]);

      // An operator finds the item in the tracker; now a separate item of the same content may be filed.
      const [item] = await creates();
      const resolved = await resolveAsOperator(on.gw.app, lostOp, 'completed', 'found it', item!.ref);
      expect(resolved).toMatchObject({ kind: 'resolved', hook: 'ran' });
      // The user is asked about a separate item beside the one found, and it is filed when they agree.
      const separate = await commitAsking(second, false);
      expect(separate.asked).toHaveLength(1);
      expect(separate.asked[0]!.message).toContain(
        `Work item ${item!.ref} with the same title and description`,
      );
      expect(separate.envelope.status).toBe('completed');
      expect(await creates()).toHaveLength(2);
    });

    it('confirmed commits of the same work while one is in flight: exactly one reaches the tracker', async () => {
      const drafts = [];
      for (let i = 0; i < 8; i += 1) drafts.push(await draft());
      // The tracker takes a while to answer, so every other commit starts while the first is unsettled.
      simulationWorld(on.gw.app.db).faults.arm({
        target: 'tracker',
        fault: 'delay_ms',
        times: 8,
        match: { action: 'create_item' },
        params: { ms: 1500 },
      });
      const answers = await Promise.all(drafts.map((id) => commit(id, true)));
      expect(answers.filter((a) => a.status === 'completed')).toHaveLength(1);
      expect(answers.filter((a) => a.code === 'COMMIT_OUTCOME_PENDING')).toHaveLength(7);
      expect(await creates()).toHaveLength(1);
      expect((await draftStates()).filter((d) => d.state === 'draft')).toHaveLength(7);
    });
  });
}
