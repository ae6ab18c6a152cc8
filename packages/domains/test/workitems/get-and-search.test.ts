import { simulationHooksOf, simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { newKey, startWorkitems, type WorkitemsHarness } from './workitems-app.ts';

const MEMBER = 'workitems_member';

interface Page {
  items: { item_id: string; title: string }[];
  next_cursor: string | null;
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`workitems get and search on ${target.dialect}`, () => {
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

    it('reads a draft, then the committed item with the state the tracker reports now', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Wishlist loses items after login',
        labels: ['wishlist'],
        idempotency_key: newKey(),
      });
      const draftId = (env.result as { draft: { draft_id: string } }).draft.draft_id;
      const before = await h.call(MEMBER, 'workitems_get', { id: draftId });
      expect(before).toMatchObject({
        status: 'completed',
        result: { found: 'draft', item: null, draft: { state: 'draft', labels: ['wishlist'] } },
      });
      await h.commit(MEMBER, { draft_id: draftId, idempotency_key: newKey() });
      await simulationHooksOf(h.app.modules[0]!)!.simulate!('tracker', 'set_item_state', {
        item_id: 'WEB-4',
        state: 'in_progress',
      });
      const after = await h.call(MEMBER, 'workitems_get', { id: draftId });
      expect(after.result).toMatchObject({
        found: 'draft',
        draft: { state: 'committed', item_id: 'WEB-4' },
        item: { item_id: 'WEB-4', state: 'in_progress', labels: ['wishlist'] },
        tracker_mode: 'idempotent',
      });
      const byItem = await h.call(MEMBER, 'workitems_get', { id: 'WEB-4' });
      expect(byItem.result).toMatchObject({ found: 'item', draft: { draft_id: draftId } });
      const seeded = await h.call(MEMBER, 'workitems_get', { id: 'OPS-1' });
      expect(seeded.result).toMatchObject({ found: 'item', draft: null, tracker_mode: 'unprotected' });
      expect(await h.call(MEMBER, 'workitems_get', { id: 'WEB-999' })).toMatchObject({
        status: 'rejected',
        code: 'WORKITEM_NOT_FOUND',
      });
    });

    it('pages through a project newest first with a cursor bound to the query', async () => {
      for (let i = 1; i <= 5; i += 1) {
        await simulationHooksOf(h.app.modules[0]!)!.simulate!('tracker', 'create_item', {
          project_id: 'WEB',
          title: `Flaky test ${i}`,
        });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page += 1) {
        const args: Record<string, unknown> = { project_id: 'WEB', text: 'FLAKY', page_size: 2 };
        if (cursor) args.cursor = cursor;
        const env = await h.call(MEMBER, 'workitems_search', args);
        expect(env.status).toBe('completed');
        const result = env.result as unknown as Page;
        seen.push(...result.items.map((i) => i.item_id));
        cursor = result.next_cursor;
        if (!cursor) break;
      }
      expect(seen).toEqual(['WEB-8', 'WEB-7', 'WEB-6', 'WEB-5', 'WEB-4']);
      const first = (
        await h.call(MEMBER, 'workitems_search', { project_id: 'WEB', text: 'flaky', page_size: 2 })
      ).result as unknown as Page;
      const misused = await h.call(MEMBER, 'workitems_search', {
        project_id: 'WEB',
        text: 'checkout',
        cursor: first.next_cursor,
      });
      expect(misused).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT' });
      expect(misused.field_errors).toMatchObject([{ field: 'cursor', code: 'INVALID_CURSOR' }]);
    });

    it('bounds the page size and the text', async () => {
      const env = await h.call(MEMBER, 'workitems_search', { project_id: 'WEB', page_size: 51, text: 'x' });
      expect(env.field_errors.map((e) => [e.field, e.code]).sort()).toEqual([
        ['page_size', 'TOO_BIG'],
        ['text', 'TOO_SMALL'],
      ]);
      const none = await h.call(MEMBER, 'workitems_search', { project_id: 'WEB', text: 'no such words' });
      expect(none).toMatchObject({ status: 'completed', result: { items: [], next_cursor: null } });
    });
  });
}
