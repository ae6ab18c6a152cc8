import { simulationOf } from '@toolgate/simulation';
import type { OutcomeEnvelope } from 'toolgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { newKey, startWorkitems, type WorkitemsHarness } from './workitems-app.ts';

const MEMBER = 'workitems_member';
const VIEWER = 'workitems_viewer';
const OTHER_TENANT = 'workitems_other_tenant';
/** SEC's lead (a member with write access there), not one of the demo principals. */
const LEAD = {
  subject: 'usr_wi_sam',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: new Set(['workitems:read', 'workitems:write']),
} as const;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`workitems project permissions on ${target.dialect}`, () => {
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

    const trackerItems = () => h.rows('SELECT item_id FROM ext_tracker_items ORDER BY tenant, item_id');

    it('the restricted project: a read-only member cannot prepare or commit there, and nothing changes', async () => {
      const before = await trackerItems();
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'SEC',
        title: 'Disable the old VPN',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({
        ok: false,
        status: 'failed',
        code: 'PROJECT_ACCESS_DENIED',
        category: 'authorization',
        retryable: false,
      });
      expect(env.message).toContain('SEC');
      expect(await h.rows('SELECT draft_id FROM workitems_drafts')).toEqual([]);
      expect(await trackerItems()).toEqual(before);
      expect(await h.trackerCreates()).toHaveLength(0);
      // Reading is allowed to this member (documented): the restricted project is read-only for them.
      const read = await h.call(MEMBER, 'workitems_search', { project_id: 'SEC' });
      expect(read).toMatchObject({ status: 'completed', result: { items: [{ item_id: 'SEC-1' }] } });
    });

    it('the restricted project is invisible to a tenant user without membership', async () => {
      const open = await h.call(VIEWER, 'workitems_search', { project_id: 'WEB' });
      expect(open.status).toBe('completed');
      // Nor is it offered when the caller names a project that does not exist.
      const unknown = await h.call(VIEWER, 'workitems_search', { project_id: 'PAY' });
      expect(unknown).toMatchObject({ status: 'rejected', code: 'PROJECT_NOT_FOUND' });
      expect(unknown.resolution).toContain('Projects you can read: OPS, WEB.');
    });

    it('invisible means not found: SEC answers exactly like a project or item that does not exist', async () => {
      const comparable = ({
        ok,
        status,
        code,
        category,
        retryable,
        message,
        resolution,
        result,
      }: OutcomeEnvelope) => ({
        ok,
        status,
        code,
        category,
        retryable,
        message: message.replaceAll('SEC', 'PAY'),
        resolution,
        result,
      });
      const search = await h.call(VIEWER, 'workitems_search', { project_id: 'SEC', text: 'payroll' });
      const missing = await h.call(VIEWER, 'workitems_search', { project_id: 'PAY', text: 'payroll' });
      expect(search).toMatchObject({ status: 'rejected', code: 'PROJECT_NOT_FOUND', result: null });
      expect(comparable(search)).toEqual(comparable(missing));
      expect(JSON.stringify(search)).not.toContain('Security');

      const get = await h.call(VIEWER, 'workitems_get', { id: 'SEC-1' });
      const nothing = await h.call(VIEWER, 'workitems_get', { id: 'PAY-1' });
      const noItem = await h.call(VIEWER, 'workitems_get', { id: 'WEB-999' });
      expect(get).toMatchObject({ status: 'rejected', code: 'WORKITEM_NOT_FOUND', result: null });
      expect(comparable(get)).toEqual(comparable(nothing));
      expect(get.message.replace('SEC-1', 'WEB-999')).toBe(noItem.message);

      // A writer without membership in SEC cannot tell it from a project that does not exist either.
      const outsider = { ...LEAD, subject: 'usr_wi_outsider' };
      const draftThere = await h.call(outsider, 'workitems_create_draft', {
        project_id: 'SEC',
        title: 'Anything at all',
        idempotency_key: newKey(),
      });
      const draftNowhere = await h.call(outsider, 'workitems_create_draft', {
        project_id: 'PAY',
        title: 'Anything at all',
        idempotency_key: newKey(),
      });
      expect(draftThere).toMatchObject({ status: 'rejected', code: 'PROJECT_NOT_FOUND' });
      expect(comparable(draftThere)).toEqual(comparable(draftNowhere));

      // A draft in SEC (prepared by its lead) is just as invisible, for reading and for committing.
      const lead = await h.call(LEAD, 'workitems_create_draft', {
        project_id: 'SEC',
        title: 'Rotate the payroll export signing key',
        idempotency_key: newKey(),
      });
      const draftId = (lead.result as { draft: { draft_id: string } }).draft.draft_id;
      const unknownDraft = 'drf_000000000000000000000000';
      const readDraft = await h.call(VIEWER, 'workitems_get', { id: draftId });
      expect(readDraft.message.replace(draftId, unknownDraft)).toBe(
        (await h.call(VIEWER, 'workitems_get', { id: unknownDraft })).message,
      );
      const hidden = await h.commit(outsider, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      const absent = await h.commit(outsider, {
        draft_id: unknownDraft,
        idempotency_key: newKey(),
      });
      expect(hidden).toMatchObject({ status: 'rejected', code: 'WORKITEM_NOT_FOUND' });
      expect(hidden.message.replace(draftId, unknownDraft)).toBe(absent.message);
      const commit = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      // The member reads SEC, so for them the draft exists and the refusal is about writing.
      expect(commit).toMatchObject({ status: 'failed', code: 'PROJECT_ACCESS_DENIED' });
      expect(await h.trackerCreates()).toHaveLength(0);
    });

    it('a caller without workitems:write is refused by scope before anything runs', async () => {
      const env = await h.call(VIEWER, 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Anything',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({ status: 'failed', code: 'FORBIDDEN', operation_id: null });
      expect(await h.rows('SELECT draft_id FROM workitems_drafts')).toEqual([]);
    });

    it('write access is checked again at commit: a member who lost it commits nothing', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Slow product images',
        idempotency_key: newKey(),
      });
      const draftId = (env.result as { draft: { draft_id: string } }).draft.draft_id;
      await h.app.db.execute("UPDATE workitems_members SET permission = 'read' WHERE project_id = 'WEB'");
      const commit = await h.commit(MEMBER, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(commit).toMatchObject({ status: 'failed', code: 'PROJECT_ACCESS_DENIED' });
      expect(await h.trackerCreates()).toHaveLength(0);
      expect(await h.rows('SELECT state FROM workitems_drafts WHERE draft_id = ?', [draftId])).toEqual([
        { state: 'draft' },
      ]);
    });

    it('another tenant sees none of acme: projects, items and drafts are not found', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Tenant-private draft',
        idempotency_key: newKey(),
      });
      const draftId = (env.result as { draft: { draft_id: string } }).draft.draft_id;
      const project = await h.call(OTHER_TENANT, 'workitems_search', { project_id: 'WEB' });
      expect(project).toMatchObject({ status: 'rejected', code: 'PROJECT_NOT_FOUND' });
      expect(project.resolution).toContain('APP');
      expect(project.resolution).not.toContain('WEB');
      expect(await h.call(OTHER_TENANT, 'workitems_get', { id: 'WEB-1' })).toMatchObject({
        code: 'WORKITEM_NOT_FOUND',
      });
      expect(await h.call(OTHER_TENANT, 'workitems_get', { id: draftId })).toMatchObject({
        code: 'WORKITEM_NOT_FOUND',
      });
      const commit = await h.commit(OTHER_TENANT, {
        draft_id: draftId,
        idempotency_key: newKey(),
      });
      expect(commit).toMatchObject({ status: 'rejected', code: 'WORKITEM_NOT_FOUND' });
      expect(await h.trackerCreates()).toHaveLength(0);
      const own = await h.call(OTHER_TENANT, 'workitems_get', { id: 'APP-1' });
      expect(own).toMatchObject({ status: 'completed', result: { item: { item_id: 'APP-1' } } });
    });

    it('an invented project id is refused with the projects the caller can read', async () => {
      const env = await h.call(MEMBER, 'workitems_create_draft', {
        project_id: 'WEBSHOP',
        title: 'Anything',
        idempotency_key: newKey(),
      });
      expect(env).toMatchObject({ status: 'rejected', code: 'PROJECT_NOT_FOUND', category: 'not_found' });
      expect(env.resolution).toContain('OPS, SEC, WEB');
    });
  });
}
