import { simulationWorld } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { callAccepted } from '../../../../test/support/person-confirms.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import {
  allPlatformRecords,
  call,
  engineer,
  newKey,
  platformEffects,
  productionRequest,
  testEnvironmentRequest,
  useChangesApp,
} from './changes-harness.ts';

/**
 * Duplicate suspicion of change_create decided atomically (one change for a burst of identical
 * requests under new keys, on both stores), and no identical change started while an earlier one's
 * outcome is unknown, whatever the confirmation flag says.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change_create duplicates on ${target.dialect}`, () => {
    const changes = useChangesApp(target);

    const created = async () => (await allPlatformRecords(changes.app)).slice(changes.seeded);
    const createRecordEffects = async () =>
      (await platformEffects(changes.app)).filter((e) => e.action === 'create_record');
    const claimRows = () =>
      changes.app.db.query<{ operation_id: string; state: string }>(
        'SELECT operation_id, state FROM changes_create_claims ORDER BY created_at, operation_id',
      );

    it('20 concurrent identical creates under new keys make exactly one change', async () => {
      const request = testEnvironmentRequest(changes.app, { dry_run: false });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(changes.app, engineer, 'change_create', { ...request, idempotency_key: newKey('burst') }),
        ),
      );
      const done = answers.filter((a) => a.status === 'completed');
      expect(done).toHaveLength(1);
      const winner = done[0]!.operation_id!;
      for (const other of answers.filter((a) => a.status !== 'completed')) {
        // Still creating when it asked: blocked; after it finished: a possible duplicate to confirm.
        expect(['CHANGE_CREATION_IN_PROGRESS', 'POSSIBLE_DUPLICATE'], JSON.stringify(other)).toContain(
          other.code,
        );
        // The domain's refusal names the one creating; the gateway's advisory check names any earlier one.
        if (other.code === 'CHANGE_CREATION_IN_PROGRESS') expect(other.resolution).toContain(winner);
      }
      expect(await created()).toEqual([
        expect.objectContaining({ operation_id: winner, state: 'scheduled' }),
      ]);
      expect((await createRecordEffects()).map((e) => e.requestId)).toEqual([winner]);
      expect(await claimRows()).toEqual([{ operation_id: winner, state: 'created' }]);
    });

    it('20 concurrent identical confirmed creates still make one change at a time', async () => {
      const request = testEnvironmentRequest(changes.app, { dry_run: false, confirm_new_change: true });
      // The platform answers slowly, so every other request arrives while the first is creating.
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'delay_ms',
        match: { action: 'create_record' },
        params: { ms: 300 },
      });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(changes.app, engineer, 'change_create', { ...request, idempotency_key: newKey('confirmed') }),
        ),
      );
      expect(answers.filter((a) => a.status === 'completed')).toHaveLength(1);
      expect(answers.filter((a) => a.code === 'CHANGE_CREATION_IN_PROGRESS')).toHaveLength(19);
      expect(await created()).toHaveLength(1);
      expect(await createRecordEffects()).toHaveLength(1);
    });

    it('an identical create while the first is unknown is refused even when confirmed; after it settles, a confirmed one is made', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'timeout',
        match: { action: 'create_record' },
        params: { ms: 50 },
      });
      const request = productionRequest(changes.app, { dry_run: false });
      // Production: every execution is the user's own confirmed one.
      const lost = await callAccepted(changes.app, engineer, 'change_create', request);
      expect(lost).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
      const lostOp = lost.operation_id!;
      expect(await claimRows()).toEqual([{ operation_id: lostOp, state: 'creating' }]);

      const key = newKey('again');
      const suspected = await call(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: key,
      });
      expect(suspected).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      // The user "confirms" a new change, as that answer suggests: refused while the first is unknown.
      const confirmed = await callAccepted(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: key,
        confirm_new_change: true,
      });
      expect(confirmed).toMatchObject({
        ok: false,
        status: 'rejected',
        code: 'CHANGE_CREATION_IN_PROGRESS',
        category: 'conflict',
        retryable: false,
      });
      expect(confirmed.resolution).toContain(`operations_get with operation_id ${lostOp}`);
      expect(await created()).toEqual([]);
      expect(await platformEffects(changes.app)).toEqual([]);

      // The reconciler finds the platform never got it and finishes it from the recovery point.
      changes.app.clock.shift(1_000);
      await changes.app.operations.reconciler.runOnce();
      expect(
        (await call(changes.app, engineer, 'operations_get', { operation_id: lostOp })).result,
      ).toMatchObject({
        status: 'completed',
      });
      expect(await claimRows()).toEqual([{ operation_id: lostOp, state: 'created' }]);
      const unconfirmed = await call(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: newKey(),
      });
      expect(unconfirmed).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      const separate = await callAccepted(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: newKey('separate'),
        confirm_new_change: true,
      });
      expect(separate.status).toBe('completed');
      expect((await created()).map((r) => r.operation_id)).toEqual([lostOp, separate.operation_id]);
    });

    it('a create that made nothing frees its content for a new request', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'create_record' },
      });
      const request = testEnvironmentRequest(changes.app, { dry_run: false });
      const down = await call(changes.app, engineer, 'change_create', request);
      expect(down).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE' });
      expect(await claimRows()).toEqual([]);
      const fresh = await call(changes.app, engineer, 'change_create', {
        ...request,
        idempotency_key: newKey(),
      });
      expect(fresh.status).toBe('completed');
    });
  });
}
