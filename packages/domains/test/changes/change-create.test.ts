import { simulationHooksOf, simulationWorld } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { callAccepted } from '../../../../test/support/person-confirms.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import {
  allPlatformRecords,
  call,
  engineer,
  newKey,
  nonProdEngineer,
  otherTenantEngineer,
  platformEffects,
  productionRequest,
  testEnvironmentRequest,
  useChangesApp,
} from './changes-harness.ts';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change_create on ${target.dialect}`, () => {
    const changes = useChangesApp(target);

    /** The world is as seeded: no new record, no platform effect. */
    async function expectNothingCreated() {
      expect(await allPlatformRecords(changes.app)).toHaveLength(changes.seeded);
      expect(await platformEffects(changes.app)).toEqual([]);
    }

    it('creates a complete test-environment change once, through the four platform steps', async () => {
      const answer = await call(
        changes.app,
        engineer,
        'change_create',
        testEnvironmentRequest(changes.app, { dry_run: false }),
      );
      expect(answer).toMatchObject({
        ok: true,
        status: 'completed',
        result: { state: 'scheduled', created: true, replayed: false, approval_required: false },
        warnings: [],
      });
      const changeId = answer.result!.change_id as string;
      const records = await allPlatformRecords(changes.app);
      expect(records).toHaveLength(changes.seeded + 1);
      expect(records.at(-1)).toEqual({
        change_id: changeId,
        state: 'scheduled',
        operation_id: answer.operation_id,
      });
      const effects = await platformEffects(changes.app, answer.operation_id!);
      expect(effects.map((e) => e.action)).toEqual([
        'create_record',
        'attach_implementation_plan',
        'attach_rollback_plan',
        'schedule',
      ]);
      expect(effects.every((e) => e.ref === changeId && e.tenant === 'acme')).toBe(true);
      expect(JSON.stringify(effects)).not.toContain('restart one instance');
      const got = await call(changes.app, engineer, 'change_get', { change_id: changeId });
      expect(got).toMatchObject({
        status: 'completed',
        result: { change_id: changeId, environment: 'test' },
      });
    });

    it('dry run creates nothing and reserves no key; the execution with that key creates one record', async () => {
      const request = productionRequest(changes.app);
      const dry = await call(changes.app, engineer, 'change_create', request);
      expect(dry).toMatchObject({
        ok: true,
        status: 'validated',
        operation_id: null,
        result: {
          change_id: null,
          state: 'validated',
          created: false,
          effective_risk: 'medium',
          approval_required: true,
          approval_group: 'production-change-approvers',
          scheduled_start: request.start_time,
        },
        warnings: [{ code: 'APPROVAL_REQUIRED' }],
      });
      await expectNothingCreated();
      expect(
        await changes.app.operations.store.findByKey(
          'acme',
          engineer.subject,
          request.idempotency_key as string,
        ),
      ).toBeNull();

      // The user confirms the production execution; the replay of its key (by any client) asks nobody.
      const executed = await callAccepted(changes.app, engineer, 'change_create', {
        ...request,
        dry_run: false,
      });
      expect(executed).toMatchObject({
        status: 'completed',
        replayed: false,
        result: { state: 'pending_approval', created: true, replayed: false },
      });
      const again = await call(changes.app, engineer, 'change_create', { ...request, dry_run: false });
      expect(again).toMatchObject({
        status: 'completed',
        replayed: true,
        operation_id: executed.operation_id,
        result: { change_id: executed.result!.change_id, replayed: true },
      });
      expect(await allPlatformRecords(changes.app)).toHaveLength(changes.seeded + 1);
      expect(await platformEffects(changes.app)).toHaveLength(4);
    });

    it('refuses the same key with a changed summary, executing nothing', async () => {
      const request = testEnvironmentRequest(changes.app, { dry_run: false });
      const first = await call(changes.app, engineer, 'change_create', request);
      expect(first.status).toBe('completed');
      const changed = await call(changes.app, engineer, 'change_create', {
        ...request,
        summary: 'Enable another layout in test',
      });
      expect(changed).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT', category: 'conflict' });
      expect(await allPlatformRecords(changes.app)).toHaveLength(changes.seeded + 1);
      expect(await platformEffects(changes.app)).toHaveLength(4);
    });

    it('refuses production outside a window with the next window as a field error', async () => {
      const outside = productionRequest(changes.app, { dry_run: false });
      const windowStart = Date.parse(outside.start_time as string) - 30 * 60_000;
      outside.start_time = new Date(windowStart - 3 * 3_600_000).toISOString();
      const answer = await call(changes.app, engineer, 'change_create', outside);
      expect(answer).toMatchObject({
        ok: false,
        status: 'rejected',
        code: 'MAINTENANCE_WINDOW_REQUIRED',
        category: 'policy',
        retryable: false,
        field_errors: [{ field: 'start_time', code: 'OUTSIDE_APPROVED_WINDOW' }],
      });
      expect(answer.field_errors[0]!.message).toContain(new Date(windowStart).toISOString().slice(0, 19));
      await expectNothingCreated();
    });

    it('refuses a change during an active freeze, and accepts it once the freeze is lifted', async () => {
      const domain = changes.app.modules[0]!;
      const freeze = await simulationHooksOf(domain)!.simulate!('change_platform', 'set_freeze', {
        hours: 24 * 14,
        reason: 'Year-end',
      });
      expect(freeze).toMatchObject({ freeze: { environments: ['production'], reason: 'Year-end' } });
      const request = productionRequest(changes.app, { dry_run: false });
      const answer = await call(changes.app, engineer, 'change_create', request);
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'CHANGE_FREEZE_ACTIVE',
        category: 'policy',
        field_errors: [{ field: 'start_time', code: 'IN_CHANGE_FREEZE' }],
      });
      expect(answer.message).toContain('Year-end');
      await expectNothingCreated();
      expect(
        await call(changes.app, engineer, 'change_create', testEnvironmentRequest(changes.app)),
      ).toMatchObject({
        status: 'validated',
      });
      await simulationHooksOf(domain)!.simulate!('change_platform', 'clear_freeze', {});
      const later = await callAccepted(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: newKey(),
      });
      expect(later).toMatchObject({ status: 'completed' });
    });

    it('refuses an unknown service and points at the resolver with look-alike ids', async () => {
      const answer = await call(
        changes.app,
        engineer,
        'change_create',
        productionRequest(changes.app, { service_id: 'paymnts-api' }),
      );
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'UNKNOWN_SERVICE',
        category: 'not_found',
        resolution: expect.stringContaining('cmdb_service_resolve'),
        field_errors: [
          { field: 'service_id', code: 'UNKNOWN_SERVICE', message: expect.stringContaining('payments-api') },
        ],
      });
      await expectNothingCreated();
    });

    it("keeps tenants apart: another tenant's service does not exist for the caller", async () => {
      const answer = await call(
        changes.app,
        otherTenantEngineer,
        'change_create',
        productionRequest(changes.app, { dry_run: false }),
      );
      expect(answer).toMatchObject({ status: 'rejected', code: 'UNKNOWN_SERVICE' });
      await expectNothingCreated();
      expect(await allPlatformRecords(changes.app, 'globex')).toHaveLength(1);
    });

    it('refuses production to a caller without the production scope, but not the test environment', async () => {
      const answer = await call(
        changes.app,
        nonProdEngineer,
        'change_create',
        productionRequest(changes.app, { dry_run: false }),
      );
      expect(answer).toMatchObject({
        ok: false,
        status: 'failed',
        code: 'FORBIDDEN',
        category: 'authorization',
        resolution: expect.stringContaining('changes:create:production'),
      });
      await expectNothingCreated();
      const allowed = await call(
        changes.app,
        nonProdEngineer,
        'change_create',
        testEnvironmentRequest(changes.app, { dry_run: false }),
      );
      expect(allowed).toMatchObject({ status: 'completed', result: { created: true } });
    });

    it('refuses skip_approval and force by name, listing the allowed fields', async () => {
      const answer = await call(changes.app, engineer, 'change_create', {
        ...productionRequest(changes.app, { dry_run: false }),
        skip_approval: true,
        force: true,
      });
      expect(answer).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT', operation_id: null });
      expect(answer.field_errors.map((e) => [e.field, e.code])).toEqual([
        ['skip_approval', 'UNKNOWN_FIELD'],
        ['force', 'UNKNOWN_FIELD'],
      ]);
      expect(answer.field_errors[0]!.message).toContain('rollback_plan');
      await expectNothingCreated();
    });

    it('refuses credentials in a plan without repeating them', async () => {
      const secret = 'AKIAIOSFODNN7EXAMPLE';
      const answer = await call(
        changes.app,
        engineer,
        'change_create',
        testEnvironmentRequest(changes.app, {
          dry_run: false,
          implementation_plan: `Export AWS_ACCESS_KEY_ID=${secret} and run the layout migration job in test.`,
        }),
      );
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'CREDENTIALS_IN_PLAN',
        field_errors: [{ field: 'implementation_plan', code: 'LOOKS_LIKE_CREDENTIAL' }],
      });
      expect(JSON.stringify(answer)).not.toContain(secret);
      await expectNothingCreated();
    });

    it('refuses a start in the past (the seed examples are past now) and a time without offset', async () => {
      const past = await call(
        changes.app,
        engineer,
        'change_create',
        productionRequest(changes.app, { start_time: '2026-08-15T02:00:00-05:00' }),
      );
      expect(past).toMatchObject({
        status: 'failed',
        code: 'START_TIME_IN_PAST',
        field_errors: [{ field: 'start_time', code: 'MUST_BE_FUTURE' }],
      });
      const local = await call(
        changes.app,
        engineer,
        'change_create',
        productionRequest(changes.app, { start_time: '2030-08-15T02:00:00' }),
      );
      expect(local).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        field_errors: [{ field: 'start_time' }],
      });
      await expectNothingCreated();
    });

    it('answers DEPENDENCY_UNAVAILABLE when the platform takes nothing, and the same key then creates one change', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'create_record' },
      });
      const request = testEnvironmentRequest(changes.app, { dry_run: false });
      const down = await call(changes.app, engineer, 'change_create', request);
      expect(down).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
      await expectNothingCreated();
      const retry = await call(changes.app, engineer, 'change_create', request);
      expect(retry).toMatchObject({
        status: 'completed',
        operation_id: down.operation_id,
        result: { created: true },
      });
      expect(await allPlatformRecords(changes.app)).toHaveLength(changes.seeded + 1);
    });

    it('abandons a half-made change the platform refuses part-way; it never becomes visible', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'reject',
        match: { action: 'attach_rollback_plan' },
        params: { message: 'rollback plan must name an owner' },
      });
      const answer = await call(
        changes.app,
        engineer,
        'change_create',
        testEnvironmentRequest(changes.app, { dry_run: false }),
      );
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'CHANGE_PLATFORM_REJECTED',
        category: 'dependency',
      });
      expect((await allPlatformRecords(changes.app)).at(-1)).toMatchObject({ state: 'abandoned' });
      const search = await call(changes.app, engineer, 'change_search', { environment: 'test' });
      expect(search.result).toEqual({ changes: [], next_cursor: null });
    });
  });
}
