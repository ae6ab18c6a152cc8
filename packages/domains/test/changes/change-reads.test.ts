import { simulationHooksOf, simulationWorld } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ChangePlatform } from '../../src/changes/systems/change-platform/change-platform.ts';
import {
  call,
  engineer,
  otherTenantEngineer,
  platformEffects,
  testEnvironmentRequest,
  useChangesApp,
} from './changes-harness.ts';

interface Listed {
  changes: { change_id: string; state: string; service_id: string }[];
  next_cursor: string | null;
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change reads and the platform on ${target.dialect}`, () => {
    const changes = useChangesApp(target);

    async function createTestChanges(count: number): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const answer = await call(
          changes.app,
          engineer,
          'change_create',
          testEnvironmentRequest(changes.app, { dry_run: false, summary: `Batch layout change number ${i}` }),
        );
        ids.push(answer.result!.change_id as string);
      }
      return ids;
    }

    it('pages through changes newest first, bounded by page_size, with filters', async () => {
      const created = await createTestChanges(5);
      const pages: string[] = [];
      let cursor: string | null = null;
      for (let guard = 0; guard < 5; guard += 1) {
        const page: Listed = (
          await call(changes.app, engineer, 'change_search', {
            environment: 'test',
            page_size: 2,
            ...(cursor ? { cursor } : {}),
          })
        ).result as unknown as Listed;
        expect(page.changes.length).toBeLessThanOrEqual(2);
        pages.push(...page.changes.map((c) => c.change_id));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      expect(pages).toEqual([...created].reverse());
      const text = (await call(changes.app, engineer, 'change_search', { text: 'NUMBER 3' }))
        .result as unknown as Listed;
      expect(text.changes.map((c) => c.change_id)).toEqual([created[3]]);
      const wildcard = (await call(changes.app, engineer, 'change_search', { text: '100%' }))
        .result as unknown as Listed;
      expect(wildcard.changes).toEqual([]);
      const pending = (await call(changes.app, engineer, 'change_search', { state: 'pending_approval' }))
        .result as unknown as Listed;
      expect(pending.changes.map((c) => c.service_id)).toEqual(['ledger-db']);
    });

    it('refuses a cursor it did not issue and page sizes over the bound', async () => {
      expect(
        await call(changes.app, engineer, 'change_search', { cursor: 'bm90LWEtY3Vyc29y' }),
      ).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        field_errors: [{ field: 'cursor', code: 'INVALID_CURSOR' }],
      });
      expect(await call(changes.app, engineer, 'change_search', { page_size: 26 })).toMatchObject({
        status: 'failed',
        field_errors: [{ field: 'page_size', code: 'TOO_BIG' }],
      });
    });

    it("never shows one tenant's changes to another", async () => {
      const [acmeChange] = await createTestChanges(1);
      expect(
        await call(changes.app, otherTenantEngineer, 'change_get', { change_id: acmeChange }),
      ).toMatchObject({
        status: 'rejected',
        code: 'CHANGE_NOT_FOUND',
      });
      const listed = (await call(changes.app, otherTenantEngineer, 'change_search', {}))
        .result as unknown as Listed;
      expect(listed.changes.map((c) => c.service_id)).toEqual(['storefront-api']);
      const resolved = await call(changes.app, otherTenantEngineer, 'cmdb_service_resolve', {
        query: 'payments API',
      });
      expect(resolved.result).toEqual({
        candidates: [expect.objectContaining({ service_id: 'storefront-api', score: 0.5 })],
        unambiguous: false,
      });
    });

    it('shows an approval decision made on the platform', async () => {
      const pending = (await call(changes.app, engineer, 'change_search', { state: 'pending_approval' }))
        .result as unknown as Listed;
      const changeId = pending.changes[0]!.change_id;
      const decided = await simulationHooksOf(changes.app.modules[0]!)!.simulate!(
        'change_platform',
        'decide_approval',
        {
          change_id: changeId,
          decision: 'approve',
        },
      );
      expect(decided).toEqual({ change_id: changeId, state: 'scheduled' });
      expect(await call(changes.app, engineer, 'change_get', { change_id: changeId })).toMatchObject({
        result: { state: 'scheduled', approval_group: 'production-change-approvers' },
      });
      expect((await platformEffects(changes.app)).map((e) => [e.action, e.ref])).toEqual([
        ['approve', changeId],
      ]);
      expect(
        await simulationHooksOf(changes.app.modules[0]!)!.simulate!('change_platform', 'decide_approval', {
          change_id: changeId,
          decision: 'decline',
        }),
      ).toEqual({ applied: false, reason: `change ${changeId} is not pending approval` });
      expect(
        await simulationHooksOf(changes.app.modules[0]!)!.simulate!('change_platform', 'summon_approver', {}),
      ).toBeNull();
      expect(await platformEffects(changes.app)).toHaveLength(1);
    });

    it('resolves a spoken name to catalog ids and says when the user must choose', async () => {
      const clear = await call(changes.app, engineer, 'cmdb_service_resolve', { query: 'payments API' });
      expect(clear.result).toMatchObject({
        unambiguous: true,
        candidates: [
          { service_id: 'payments-api', criticality: 'critical', score: 1 },
          { service_id: 'payments-reporting' },
        ],
      });
      const vague = await call(changes.app, engineer, 'cmdb_service_resolve', {
        query: 'payments',
        limit: 1,
      });
      expect(vague.result).toMatchObject({
        unambiguous: false,
        candidates: [{ service_id: 'payments-api' }],
      });
    });

    it('answers DEPENDENCY_UNAVAILABLE for reads the platform does not answer', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'search_changes' },
      });
      expect(await call(changes.app, engineer, 'change_search', {})).toMatchObject({
        status: 'failed',
        code: 'DEPENDENCY_UNAVAILABLE',
        retryable: true,
      });
    });

    it('applies each creation step once per operation, whoever sends it again', async () => {
      const platform = new ChangePlatform({ ...changes.app, ...simulationWorld(changes.app.db) });
      const signal = new AbortController().signal;
      const draft = {
        tenant: 'acme',
        requested_by: 'eng.rivera',
        service_id: 'checkout-web',
        environment: 'test' as const,
        summary: 'Direct platform step test',
        start_time: '2030-01-01T10:00:00Z',
        start_at: Date.parse('2030-01-01T10:00:00Z'),
        duration_minutes: 30,
        requested_risk: 'low' as const,
        effective_risk: 'low' as const,
        approval_required: false,
        approval_group: null,
      };
      const [first, second] = await Promise.all([
        platform.createRecord('op-direct', draft, signal),
        platform.createRecord('op-direct', draft, signal),
      ]);
      expect(second).toBe(first);
      await platform.attachImplementationPlan(
        'op-direct',
        first,
        'Step one, then step two, then verify.',
        signal,
      );
      await platform.attachImplementationPlan(
        'op-direct',
        first,
        'A different plan sent by a late duplicate.',
        signal,
      );
      await platform.attachRollbackPlan('op-direct', first, 'Undo step two, then undo step one.', signal);
      await platform.submit('op-direct', first, signal);
      await platform.submit('op-direct', first, signal);
      const record = await platform.records.byId(first);
      expect(record).toMatchObject({
        state: 'scheduled',
        implementation_plan: 'Step one, then step two, then verify.',
      });
      expect((await platformEffects(changes.app, 'op-direct')).map((e) => e.action)).toEqual([
        'create_record',
        'attach_implementation_plan',
        'attach_rollback_plan',
        'schedule',
      ]);
    });
  });
}
