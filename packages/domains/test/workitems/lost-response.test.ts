import { setTimeout as sleep } from 'node:timers/promises';
import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { newKey, startWorkitems, type WorkitemsHarness } from './workitems-app.ts';

const MEMBER = 'workitems_member';
const RECONCILE_DUE = 60_000;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`workitems lost responses on ${target.dialect}`, () => {
    let h: WorkitemsHarness;
    beforeAll(async () => {
      h = await startWorkitems(target);
    });
    afterAll(async () => {
      await h?.close();
    });
    beforeEach(async () => {
      await simulationOf(h.app).resetWorld();
    });

    const draft = async (project: string, title = 'Payment page times out') => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: project,
        title,
        idempotency_key: newKey('draft'),
      });
      return (env.result as { draft: { draft_id: string } }).draft.draft_id;
    };
    const draftState = async (draftId: string) =>
      (await h.rows('SELECT state, item_id FROM workitems_drafts WHERE draft_id = ?', [draftId]))[0];
    const operation = async (operationId: string | null) =>
      h.call(MEMBER, 'operations_get', { operation_id: operationId });
    const reconcile = async () => {
      h.clock.shift(RECONCILE_DUE);
      return h.app.operations.reconciler.runOnce();
    };

    it('idempotent tracker: a lost answer after the write is settled by the status query, without a second create', async () => {
      const draftId = await draft('WEB');
      const key = newKey('commit');
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'drop_response_after_apply',
        match: { action: 'create_item' },
      });
      const lost = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(lost).toMatchObject({
        ok: false,
        status: 'outcome_unknown',
        code: 'OUTCOME_UNKNOWN',
        result: null,
      });
      expect(lost.resolution).toContain('do not commit again');
      expect(await h.trackerCreates()).toHaveLength(1);
      expect(await draftState(draftId)).toEqual({ state: 'committing', item_id: null });

      // The agent retries with the same key: it gets the stored unknown outcome, nothing is sent again.
      const retry = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(retry).toMatchObject({
        status: 'outcome_unknown',
        replayed: true,
        operation_id: lost.operation_id,
      });
      // The agent tries a new key: refused while the first commit is unresolved.
      const impatient = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(impatient).toMatchObject({ status: 'rejected', code: 'COMMIT_OUTCOME_PENDING' });
      expect(impatient.message).toContain(lost.operation_id);
      // Or re-drafts the same work under a new key: a possible duplicate of the pending commit.
      const redraft = await h.commit(MEMBER, {
        draft_id: await draft('WEB'),
        idempotency_key: newKey(),
      });
      expect(redraft).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      expect(redraft.message).toContain(lost.operation_id);
      expect(await h.trackerCreates()).toHaveLength(1);

      expect(await reconcile()).toMatchObject({ settled: 1, escalated: 0 });
      const settled = await operation(lost.operation_id);
      expect(settled.result).toMatchObject({ status: 'completed' });
      expect(await draftState(draftId)).toEqual({ state: 'committed', item_id: 'WEB-4' });
      const replay = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(replay).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-4' } } });
      const creates = await h.trackerCreates();
      expect(creates.map((e) => [e.ref, e.requestId])).toEqual([['WEB-4', lost.operation_id]]);
    });

    it('idempotent tracker: a request that never arrived is settled as not applied and fenced', async () => {
      const draftId = await draft('WEB');
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'timeout',
        params: { ms: 20 },
        match: { action: 'create_item' },
      });
      const lost = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey() });
      expect(lost.status).toBe('outcome_unknown');
      expect(await reconcile()).toMatchObject({ settled: 1 });
      const settled = await operation(lost.operation_id);
      expect(settled.result).toMatchObject({ status: 'rejected' });
      expect(await draftState(draftId)).toEqual({ state: 'draft', item_id: null });
      expect(await h.trackerCreates()).toHaveLength(0);
      const fenced = await h.rows('SELECT state FROM ext_tracker_requests WHERE request_id = ?', [
        lost.operation_id,
      ]);
      expect(fenced).toEqual([{ state: 'fenced' }]);
      // The draft is open again: a new commit goes through (as a new request id).
      const again = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(again).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-4' } } });
    });

    it('idempotent tracker: a status query that fails leaves the operation unknown for a later attempt', async () => {
      const draftId = await draft('WEB');
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'drop_response_after_apply',
        match: { action: 'create_item' },
      });
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'unavailable',
        match: { action: 'query_request' },
      });
      const lost = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey() });
      expect(await reconcile()).toMatchObject({ deferred: 1, settled: 0 });
      expect((await operation(lost.operation_id)).result).toMatchObject({ status: 'outcome_unknown' });
      h.clock.shift(10 * RECONCILE_DUE);
      expect(await h.app.operations.reconciler.runOnce()).toMatchObject({ settled: 1 });
      expect(await draftState(draftId)).toEqual({ state: 'committed', item_id: 'WEB-4' });
      expect(await h.trackerCreates()).toHaveLength(1);
    });

    it('unprotected tracker: a lost answer goes to human review and nothing re-sends the write', async () => {
      const draftId = await draft('OPS');
      const key = newKey('commit');
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'drop_response_after_apply',
        match: { action: 'create_item' },
      });
      const lost = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(lost).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
      expect(lost.resolution).toContain('human review');
      expect(await reconcile()).toMatchObject({ escalated: 1, settled: 0 });
      const parked = await operation(lost.operation_id);
      expect(parked.result).toMatchObject({ status: 'needs_review' });
      const retry = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(retry.status).not.toBe('completed');
      const impatient = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(impatient.code).toBe('COMMIT_OUTCOME_PENDING');
      expect(await reconcile()).toMatchObject({ settled: 0, escalated: 0 });
      const creates = await h.trackerCreates();
      expect(creates.map((e) => [e.ref, e.requestId])).toEqual([['OPS-3', lost.operation_id]]);
      expect(await draftState(draftId)).toEqual({ state: 'committing', item_id: null });
    });

    it('idempotent tracker: a request arriving after the status query said "not received" is refused', async () => {
      const draftId = await draft('WEB');
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'delay_ms',
        params: { ms: 400 },
        match: { action: 'create_item' },
      });
      const cancel = new AbortController();
      const pending = h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey() }, cancel.signal);
      setTimeout(() => cancel.abort(), 50);
      const lost = await pending;
      expect(lost.status).toBe('outcome_unknown');
      expect(await reconcile()).toMatchObject({ settled: 1 });
      expect((await operation(lost.operation_id)).result).toMatchObject({ status: 'rejected' });
      await sleep(500);
      expect(await h.trackerCreates()).toHaveLength(0);
      expect(
        await h.rows("SELECT item_id FROM ext_tracker_items WHERE title = 'Payment page times out'"),
      ).toEqual([]);
      expect(await draftState(draftId)).toEqual({ state: 'draft', item_id: null });
    });
  });
}
