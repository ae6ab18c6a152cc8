import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callAsPerson, relayedDigest } from '../../../../test/support/person-confirms.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { demoPrincipalNamed } from '../demo-principal.ts';
import { newKey, startWorkitems, type WorkitemsHarness } from './workitems-app.ts';

const MEMBER = 'workitems_member';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`workitems commit flow on ${target.dialect}`, () => {
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

    const principalOf = (name: string) => demoPrincipalNamed(simulationOf(h.app).principals, name);

    const draft = async (title = 'Search box ignores accents', project = 'WEB') => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: project,
        title,
        description: 'Searching "café" finds nothing.',
        type: 'bug',
        idempotency_key: newKey('draft'),
      });
      expect(env.status).toBe('completed');
      return (env.result as { draft: { draft_id: string } }).draft.draft_id;
    };

    it('prepares a draft in our store without touching the tracker', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'WEB',
        title: '  Search box ignores accents  ',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({ ok: true, status: 'completed', result: { tracker_mode: 'idempotent' } });
      expect(env.operation_id).toMatch(/\S/);
      const result = env.result as { draft: Record<string, unknown> };
      expect(result.draft).toMatchObject({
        title: 'Search box ignores accents',
        state: 'draft',
        type: 'task',
        priority: 'medium',
        created_by: 'usr_wi_alice',
        item_id: null,
      });
      const rows = await h.rows('SELECT state, project_id FROM workitems_drafts WHERE draft_id = ?', [
        result.draft.draft_id,
      ]);
      expect(rows).toEqual([{ state: 'draft', project_id: 'WEB' }]);
      expect(await h.trackerCreates()).toHaveLength(0);
    });

    it('creates the intended item once; the same key replays it without a second create', async () => {
      const draftId = await draft();
      const key = newKey('commit');
      const first = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(first).toMatchObject({
        ok: true,
        status: 'completed',
        replayed: false,
        result: { draft_id: draftId, item: { item_id: 'WEB-4', state: 'open' }, tracker_mode: 'idempotent' },
      });
      const again = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(again).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
      expect(again.result).toEqual(first.result);
      const creates = await h.trackerCreates();
      expect(creates.map((e) => [e.ref, e.requestId])).toEqual([['WEB-4', first.operation_id]]);
      expect(
        await h.rows('SELECT state, item_id FROM workitems_drafts WHERE draft_id = ?', [draftId]),
      ).toEqual([{ state: 'committed', item_id: 'WEB-4' }]);
    });

    it('refuses to commit the same draft again under a new key, naming the item', async () => {
      const draftId = await draft();
      await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey() });
      const second = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(second).toMatchObject({
        status: 'rejected',
        code: 'DRAFT_ALREADY_COMMITTED',
        category: 'state',
      });
      expect(second.message).toContain('WEB-4');
      expect(await h.trackerCreates()).toHaveLength(1);
    });

    it('the question names an item of the same content; declined nothing is made, accepted it is filed beside it', async () => {
      await h.commit(MEMBER, { draft_id: await draft(), idempotency_key: newKey() });
      const copy = await draft('search BOX   ignores accents');
      const key = newKey();
      const declined = await callAsPerson(
        h.app,
        principalOf(MEMBER),
        'workitems_commit',
        { draft_id: copy, idempotency_key: key },
        { action: 'decline' },
      );
      expect(declined.envelope).toMatchObject({ status: 'rejected', code: 'CONFIRMATION_DECLINED' });
      expect(declined.asked!.ask.message).toContain(
        'Work item WEB-4 with the same title and description was committed at',
      );
      expect(declined.asked!.ask.details).toMatchObject({ identical_item: 'WEB-4' });
      expect(await h.trackerCreates()).toHaveLength(1);
      expect(await h.rows('SELECT state FROM workitems_drafts WHERE draft_id = ?', [copy])).toEqual([
        { state: 'draft' },
      ]);

      // Accepting the question that named WEB-4 is the confirmation; confirm_new_item is not needed.
      const accepted = await h.commit(MEMBER, { draft_id: copy, idempotency_key: key });
      expect(accepted).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-5' } } });
      expect((await h.trackerCreates()).map((e) => e.ref)).toEqual(['WEB-4', 'WEB-5']);
    });

    it('relayed by the agent, the duplicate is part of the question and the flag still works as before', async () => {
      await h.commit(MEMBER, { draft_id: await draft(), idempotency_key: newKey() });
      const copy = await draft('search BOX   ignores accents');
      const key = newKey();
      const relayed = await h.call(MEMBER, 'workitems_commit', { draft_id: copy, idempotency_key: key });
      expect(relayed).toMatchObject({
        status: 'requires_confirmation',
        code: 'CONFIRMATION_REQUIRED',
        operation_id: null,
      });
      expect(relayed.message).toContain('Work item WEB-4 with the same title and description');
      expect(await h.trackerCreates()).toHaveLength(1);
      const flagged = await h.call(MEMBER, 'workitems_commit', {
        draft_id: copy,
        idempotency_key: key,
        confirm_new_item: true,
      });
      expect(flagged).toMatchObject({ status: 'requires_confirmation', code: 'CONFIRMATION_REQUIRED' });
      const created = await h.call(MEMBER, 'workitems_commit', {
        draft_id: copy,
        idempotency_key: key,
        confirm_new_item: true,
        confirmation: relayedDigest(flagged),
      });
      expect(created).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-5' } } });
      expect((await h.trackerCreates()).map((e) => e.ref)).toEqual(['WEB-4', 'WEB-5']);
    });

    it('treats other content, another project, or the same content after the window as new', async () => {
      await h.commit(MEMBER, { draft_id: await draft(), idempotency_key: newKey() });
      const other = await h.commit(MEMBER, {
        draft_id: await draft('Search box ignores umlauts'),
        idempotency_key: newKey(),
      });
      expect(other.status).toBe('completed');
      const elsewhere = await h.commit(MEMBER, {
        draft_id: await draft(undefined, 'OPS'),
        idempotency_key: newKey(),
      });
      expect(elsewhere).toMatchObject({ status: 'completed', result: { item: { item_id: 'OPS-3' } } });
      h.clock.shift(25 * 60 * 60 * 1000);
      const later = await h.commit(MEMBER, {
        draft_id: await draft(),
        idempotency_key: newKey(),
      });
      expect(later).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-6' } } });
      expect(await h.trackerCreates()).toHaveLength(4);
    });

    it('lets exactly one of concurrent commits of the same content through', async () => {
      const drafts = [];
      for (let i = 0; i < 6; i += 1) drafts.push(await draft());
      const answers = await Promise.all(
        drafts.map((id) => h.commit(MEMBER, { draft_id: id, idempotency_key: newKey() })),
      );
      const statuses = answers.map((a) => a.code ?? a.status).sort();
      expect(statuses).toEqual([
        'POSSIBLE_DUPLICATE',
        'POSSIBLE_DUPLICATE',
        'POSSIBLE_DUPLICATE',
        'POSSIBLE_DUPLICATE',
        'POSSIBLE_DUPLICATE',
        'completed',
      ]);
      expect(await h.trackerCreates()).toHaveLength(1);
    });

    it('lets exactly one of concurrent commits of the same draft under different keys through', async () => {
      const id = await draft();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => h.commit(MEMBER, { draft_id: id, idempotency_key: newKey() })),
      );
      expect(answers.filter((a) => a.status === 'completed')).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 'completed')) {
        expect(['COMMIT_OUTCOME_PENDING', 'DRAFT_ALREADY_COMMITTED']).toContain(refused.code);
      }
      expect(await h.trackerCreates()).toHaveLength(1);
    });

    it('changes nothing when the tracker is unavailable, and the same key may then succeed', async () => {
      const draftId = await draft();
      const key = newKey();
      simulationWorld(h.app.db).faults.arm({ target: 'tracker', fault: 'unavailable' });
      const down = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(down).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
      expect(await h.trackerCreates()).toHaveLength(0);
      expect(
        await h.rows('SELECT state, commit_operation_id FROM workitems_drafts WHERE draft_id = ?', [draftId]),
      ).toEqual([{ state: 'draft', commit_operation_id: null }]);
      const retry = await h.commit(MEMBER, { draft_id: draftId, idempotency_key: key });
      expect(retry).toMatchObject({ status: 'completed', operation_id: down.operation_id });
      expect(await h.trackerCreates()).toHaveLength(1);
    });

    it('reports a tracker refusal as rejected and leaves the draft open', async () => {
      const draftId = await draft();
      simulationWorld(h.app.db).faults.arm({
        target: 'tracker',
        fault: 'reject',
        params: { code: 'FIELD_LOCKED', message: 'type is locked' },
      });
      const refused = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(refused).toMatchObject({ status: 'rejected', code: 'TRACKER_REJECTED', category: 'dependency' });
      expect(refused.message).toContain('FIELD_LOCKED');
      expect(await h.trackerCreates()).toHaveLength(0);
      expect(await h.rows('SELECT state FROM workitems_drafts WHERE draft_id = ?', [draftId])).toEqual([
        { state: 'draft' },
      ]);
    });

    it('refuses invalid input by field and stores nothing', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'web',
        title: 'x',
        labels: ['Bad Label'],
        assignee: 'bob',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT', operation_id: null });
      expect(env.field_errors.map((e) => [e.field, e.code]).sort()).toEqual([
        ['assignee', 'UNKNOWN_FIELD'],
        ['labels.0', 'INVALID_FORMAT'],
        ['project_id', 'INVALID_FORMAT'],
        ['title', 'TOO_SMALL'],
      ]);
      expect(await h.rows('SELECT draft_id FROM workitems_drafts')).toEqual([]);
      const noKey = await h.commit(MEMBER, { draft_id: 'drf_000000000000000000000000' });
      expect(noKey.field_errors.map((e) => e.field)).toEqual(['idempotency_key']);
    });

    it('answers WORKITEM_NOT_FOUND for an unknown draft', async () => {
      const env = await h.commit(MEMBER, {
        draft_id: 'drf_000000000000000000000000',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({ status: 'rejected', code: 'WORKITEM_NOT_FOUND', category: 'not_found' });
      expect(await h.trackerCreates()).toHaveLength(0);
    });
  });
}
