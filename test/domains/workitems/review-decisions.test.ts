import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoPrincipalNamed } from '../../../packages/domains/test/demo-principal.ts';
import {
  newKey,
  startWorkitems,
  type WorkitemsHarness,
} from '../../../packages/domains/test/workitems/workitems-app.ts';
import {
  resolveDepsOf,
  resolveOperation,
} from '../../../packages/toolgate/src/operator/resolve-operation.ts';
import { resolveAsOperator } from '../../support/operator-review.ts';
import { storeTargets } from '../../support/store-targets.ts';

const MEMBER = 'workitems_member';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `operator decisions on parked commits reach the drafts, on ${target.dialect}`,
    () => {
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

      const draftState = async (draftId: string) =>
        (await h.rows('SELECT state, item_id FROM workitems_drafts WHERE draft_id = ?', [draftId]))[0];

      /** A commit to the unprotected OPS tracker whose answer never comes, parked for review. */
      async function parkedCommit(fault: 'drop_response_after_apply' | 'timeout') {
        const created = await h.call(MEMBER, 'workitems_create_draft', {
          project_id: 'OPS',
          title: 'Rotate the on-call pager secret',
          idempotency_key: newKey('draft'),
        });
        const draftId = (created.result as { draft: { draft_id: string } }).draft.draft_id;
        simulationWorld(h.app.db).faults.arm({
          target: 'tracker',
          fault,
          match: { action: 'create_item' },
          params: { ms: 50 },
        });
        const lost = await h.commit(MEMBER, {
          draft_id: draftId,
          idempotency_key: newKey('c1'),
        });
        expect(lost.status).toBe('outcome_unknown');
        h.clock.shift(60_000);
        expect(await h.app.operations.reconciler.runOnce()).toMatchObject({ escalated: 1 });
        return { draftId, operationId: lost.operation_id! };
      }

      const resolve = async (operationId: string, as: 'completed' | 'rejected', reference?: string) =>
        (await resolveAsOperator(h.app, operationId, as, 'checked the tracker by hand', reference)).kind;

      it('rejected: the draft opens again and a new commit creates the item once', async () => {
        const { draftId, operationId } = await parkedCommit('timeout');
        expect(await draftState(draftId)).toEqual({ state: 'committing', item_id: null });
        expect(await resolve(operationId, 'rejected')).toBe('resolved');
        expect(await draftState(draftId)).toEqual({ state: 'draft', item_id: null });
        const again = await h.commit(MEMBER, {
          draft_id: draftId,
          idempotency_key: newKey('c2'),
        });
        expect(again.status).toBe('completed');
        expect(await h.trackerCreates()).toHaveLength(1);
      });

      it('completed with the item the operator found: the draft records it, and nothing is re-sent', async () => {
        const { draftId, operationId } = await parkedCommit('drop_response_after_apply');
        const [created] = await h.trackerCreates();
        expect(await resolve(operationId, 'completed', created!.ref)).toBe('resolved');
        expect(await draftState(draftId)).toEqual({ state: 'committed', item_id: created!.ref });
        expect((await h.call(MEMBER, 'operations_get', { operation_id: operationId })).result).toMatchObject({
          status: 'completed',
        });
        expect(await h.trackerCreates()).toHaveLength(1);
      });

      it('completed with a reference that matches no item is refused; nothing is recorded and the draft can still settle', async () => {
        const { draftId, operationId } = await parkedCommit('drop_response_after_apply');
        const [created] = await h.trackerCreates();
        const decide = (reference?: string) =>
          resolveAsOperator(h.app, operationId, 'completed', 'checked the tracker by hand', reference);
        for (const reference of ['OPS-9999', 'WEB-1', undefined]) {
          const refused = await decide(reference);
          expect(refused, String(reference)).toMatchObject({ kind: 'refused', status: 'needs_review' });
          expect((refused as { reason: string }).reason).toContain(
            reference
              ? `Reference ${reference} matches no item of tracker project OPS`
              : 'must name the item',
          );
        }
        expect((await h.app.operations.store.findById(operationId))?.status).toBe('needs_review');
        expect(await draftState(draftId)).toEqual({ state: 'committing', item_id: null });
        expect(
          await h.rows('SELECT operator FROM operation_reviews WHERE operation_id = ?', [operationId]),
        ).toEqual([]);
        const audited = await h.app.operations.audit.list({ tenant: 'acme', operationId, limit: 200 });
        expect(audited.filter((e) => e.action === 'operations_review_resolve')).toEqual([]);

        expect(await decide(created!.ref)).toMatchObject({ kind: 'resolved', hook: 'ran' });
        expect(await draftState(draftId)).toEqual({ state: 'committed', item_id: created!.ref });
        const later = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey('c2') });
        expect(later).toMatchObject({ status: 'rejected', code: 'DRAFT_ALREADY_COMMITTED' });
        expect(await h.trackerCreates()).toHaveLength(1);
      });

      it('the requester cannot resolve its own commit; the draft stays parked and nothing is created', async () => {
        const { draftId, operationId } = await parkedCommit('drop_response_after_apply');
        const member = demoPrincipalNamed(simulationOf(h.app).principals, MEMBER);
        const selfReviewer = { ...member, scopes: new Set([...member.scopes, 'operations:review']) };
        const own = await resolveOperation(resolveDepsOf(h.app), selfReviewer, operationId, {
          outcome: 'rejected',
          note: 'let me commit it again',
        });
        expect(own).toEqual({ kind: 'four_eyes', requester: member.subject });
        expect((await h.app.operations.store.findById(operationId))?.status).toBe('needs_review');
        expect(await draftState(draftId)).toEqual({ state: 'committing', item_id: null });
        const again = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey('c2') });
        expect(again).toMatchObject({ status: 'rejected', code: 'COMMIT_OUTCOME_PENDING' });
        expect(await h.trackerCreates()).toHaveLength(1);
        expect(
          await h.rows('SELECT operator FROM operation_reviews WHERE operation_id = ?', [operationId]),
        ).toEqual([]);

        const colleague = { ...selfReviewer, subject: 'workitems-colleague' };
        const theirs = await resolveOperation(resolveDepsOf(h.app), colleague, operationId, {
          outcome: 'rejected',
          note: 'checked the tracker by hand',
        });
        expect(theirs).toMatchObject({ kind: 'resolved', decision: { operator: 'workitems-colleague' } });
        expect(await draftState(draftId)).toEqual({ state: 'draft', item_id: null });
      });
    },
  );
}
