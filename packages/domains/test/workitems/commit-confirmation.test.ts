import { simulationOf, simulationWorld } from '@toolgate/simulation';
import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient, type ScriptedAnswer } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { accepted, askingCall, askThenRun, relayedDigest } from '../../../../test/support/person-confirms.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { workitemsDomain } from '../../src/workitems/workitems-module.ts';
import { demoPrincipalNamed } from '../demo-principal.ts';
import { newKey } from './workitems-app.ts';

const MEMBER = 'workitems_member';
const COMMIT = 'workitems_commit';

/**
 * Committing a draft creates a real tracker item, so the user confirms every commit: in their client,
 * or relayed by the agent on a client that cannot ask. Only the draft they saw is sent, once.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a commit the user confirms (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, { modules: [workitemsDomain] });
    const db = () => suite.gw.app.db;

    const draft = async (title = 'Checkout button hidden behind the cookie banner') => {
      const created = await suite.gw.callTool(MEMBER, 'workitems_create_draft', {
        project_id: 'WEB',
        title,
        description: 'On screens narrower than 360 px the banner covers the button.',
        type: 'bug',
        priority: 'high',
        labels: ['checkout', 'mobile'],
        idempotency_key: newKey('draft'),
      });
      expect(created.status).toBe('completed');
      return (created.result as { draft: { draft_id: string } }).draft.draft_id;
    };
    /** The tracker's creates, the draft's row and the operations of a key: the world. */
    const world = async (draftId: string, key: string) => ({
      creates: await simulationWorld(db()).ledger.list({ system: 'tracker', action: 'create_item' }),
      draft: (
        await db().query<{ state: string; item_id: string | null }>(
          'SELECT state, item_id FROM workitems_drafts WHERE draft_id = ?',
          [draftId],
        )
      )[0],
      operations: await db().query<{ id: string; status: string }>(
        'SELECT id, status FROM operations WHERE idem_key = ?',
        [key],
      ),
    });
    const nothingSent = async (draftId: string, key: string) =>
      expect(await world(draftId, key)).toEqual({
        creates: [],
        draft: { state: 'draft', item_id: null },
        operations: [],
      });
    const commit = async (args: Record<string, unknown>, script: ScriptedAnswer[]) => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(MEMBER), script);
      const answer = await client.callTool({ name: COMMIT, arguments: args });
      await client.close();
      return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
    };

    it('accepted: the question shows the item from the stored draft, and it is created exactly once', async () => {
      const draftId = await draft();
      const key = newKey('commit');
      const { envelope, asked } = await commit({ draft_id: draftId, idempotency_key: key }, [
        { action: 'accept' },
      ]);
      expect(envelope).toMatchObject({ status: 'completed', replayed: false, result: { draft_id: draftId } });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain(`Create a high-priority bug in project WEB from draft ${draftId}?`);
      expect(asked[0]!.message).toContain('- title: "Checkout button hidden behind the cookie banner"');
      expect(asked[0]!.message).toContain('- labels: checkout, mobile');
      expect(asked[0]!.message).toContain('- identical_item: none');

      const replay = await commit({ draft_id: draftId, idempotency_key: key }, [{ action: 'decline' }]);
      expect(replay.envelope).toMatchObject({ status: 'completed', replayed: true });
      expect(replay.asked).toEqual([]);
      const itemId = (envelope.result as { item: { item_id: string } }).item.item_id;
      const after = await world(draftId, key);
      expect(after.creates.map((e) => e.ref)).toEqual([itemId]);
      expect(after.creates[0]!.requestId).toBe(envelope.operation_id);
      expect(after.draft).toEqual({ state: 'committed', item_id: itemId });
      expect(after.operations).toEqual([{ id: envelope.operation_id, status: 'completed' }]);
      const audited = await db().query<{ detail: string }>(
        'SELECT detail FROM audit_log WHERE action = ? ORDER BY seq',
        [COMMIT],
      );
      expect(audited.map((a) => JSON.parse(a.detail).confirmation?.outcome ?? null)).toEqual([
        'asked',
        'accepted',
        null,
      ]);
    });

    it('declined: nothing is sent and the key stays free', async () => {
      const draftId = await draft();
      const key = newKey('commit');
      const declined = await commit({ draft_id: draftId, idempotency_key: key }, [{ action: 'decline' }]);
      expect(declined.envelope).toMatchObject({
        status: 'rejected',
        code: 'CONFIRMATION_DECLINED',
        operation_id: null,
      });
      await nothingSent(draftId, key);
      const later = await commit({ draft_id: draftId, idempotency_key: key }, [{ action: 'accept' }]);
      expect(later.envelope).toMatchObject({ status: 'completed', replayed: false });
      expect((await world(draftId, key)).creates).toHaveLength(1);
    });

    it('an answer sent back for another draft sends nothing', async () => {
      const shown = await draft();
      const other = await draft('Search box ignores accents');
      const token = await suite.gw.tokenFor(MEMBER);
      const key = newKey('commit');
      const first = await askingCall(suite.gw.url, token, {
        name: COMMIT,
        arguments: { draft_id: shown, idempotency_key: key },
      });
      expect(first.body.result).toMatchObject({ resultType: 'input_required' });
      const swapped = await askingCall(
        suite.gw.url,
        token,
        { name: COMMIT, arguments: { draft_id: other, idempotency_key: key } },
        { inputResponses: accepted(), requestState: first.body.result!.requestState },
      );
      expect(swapped.body.result).toMatchObject({
        structuredContent: { status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null },
      });
      await nothingSent(shown, key);
      await nothingSent(other, key);
    });

    it('a client that cannot ask relays the question; only the confirmation it named sends the draft', async () => {
      const draftId = await draft();
      const key = newKey('relay');
      const relayed = await suite.gw.callTool(MEMBER, COMMIT, { draft_id: draftId, idempotency_key: key });
      expect(relayed).toMatchObject({
        status: 'requires_confirmation',
        code: 'CONFIRMATION_REQUIRED',
        operation_id: null,
      });
      expect(relayed.message).toContain('Create a high-priority bug in project WEB');
      expect(relayed.message).toContain('title: "Checkout button hidden behind the cookie banner"');
      await nothingSent(draftId, key);

      const wrong = await suite.gw.callTool(MEMBER, COMMIT, {
        draft_id: draftId,
        idempotency_key: key,
        confirmation: 'ffffffffffffffffffffffff',
      });
      expect(wrong).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null });
      await nothingSent(draftId, key);

      const done = await suite.gw.callTool(MEMBER, COMMIT, {
        draft_id: draftId,
        idempotency_key: key,
        confirmation: relayedDigest(relayed),
      });
      expect(done).toMatchObject({ status: 'completed' });
      const after = await world(draftId, key);
      expect(after.creates).toHaveLength(1);
      expect(after.draft?.state).toBe('committed');
      expect(after.operations).toEqual([{ id: done.operation_id, status: 'completed' }]);
    });

    it('a draft that changed after the user saw it is not sent', async () => {
      const draftId = await draft();
      const key = newKey('changed');
      const relayed = await suite.gw.callTool(MEMBER, COMMIT, { draft_id: draftId, idempotency_key: key });
      await db().execute("UPDATE workitems_drafts SET priority = 'low' WHERE draft_id = ?", [draftId]);
      const stale = await suite.gw.callTool(MEMBER, COMMIT, {
        draft_id: draftId,
        idempotency_key: key,
        confirmation: relayedDigest(relayed),
      });
      expect(stale).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null });
      await nothingSent(draftId, key);
    });

    it('the commit itself sends only the draft as the user confirmed it', async () => {
      const draftId = await draft();
      const tool = suite.gw.app.registry.get(COMMIT)!;
      const principal = demoPrincipalNamed(simulationOf(suite.gw.app).principals, MEMBER);
      const { input, asked, run } = await askThenRun(
        tool,
        { draft_id: draftId, idempotency_key: newKey('direct') },
        principal,
      );
      const stale = { ...asked.facts, draft_hash: '0'.repeat(64) };
      expect(await run({ via: 'client', choice: null, digest: 'shown', facts: stale })).toMatchObject({
        status: 'failed',
        code: 'CONFIRMATION_MISMATCH',
      });
      expect(await run(null)).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
      await nothingSent(draftId, String(input.idempotency_key));
    });

    it('a draft the commit would refuse is refused as before, without a question', async () => {
      const key = newKey('unknown');
      const asking = await commit({ draft_id: 'drf_000000000000000000000000', idempotency_key: key }, [
        { action: 'accept' },
      ]);
      expect(asking.asked).toEqual([]);
      const old = await suite.gw.callTool(MEMBER, COMMIT, {
        draft_id: 'drf_000000000000000000000000',
        idempotency_key: newKey('unknown-old'),
      });
      for (const answer of [asking.envelope, old]) {
        expect(answer).toMatchObject({ status: 'rejected', code: 'WORKITEM_NOT_FOUND' });
        expect(answer.operation_id).not.toBeNull();
      }
      expect({ ...asking.envelope, operation_id: null }).toEqual({ ...old, operation_id: null });
      expect(await simulationWorld(db()).ledger.list({ system: 'tracker' })).toEqual([]);
    });
  });
}
