import { simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OperationHandle } from 'toolgate';
import { describe, expect, it } from 'vitest';
import {
  allPlatformRecords,
  call,
  engineer,
  platformEffects,
  productionRequest,
  testEnvironmentRequest,
  useChangesApp,
} from '../../../packages/domains/test/changes/changes-harness.ts';
import { requestFingerprint } from '../../../packages/toolgate/src/contract/fingerprint.ts';
import { newOperationId } from '../../../packages/toolgate/src/operations/operation-id.ts';
import { noExceptions } from '../../support/no-exceptions.ts';
import { callAccepted } from '../../support/person-confirms.ts';
import { storeTargets } from '../../support/store-targets.ts';

/** Stands for the death of the process: nothing after it runs, nothing is settled. */
class ProcessDied extends Error {}

const ALL_STEPS = ['create_record', 'attach_implementation_plan', 'attach_rollback_plan', 'request_approval'];

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change_create recovery on ${target.dialect}`, () => {
    const changes = useChangesApp(target);

    async function reconcileNow() {
      changes.app.clock.shift(1_000);
      return changes.app.operations.reconciler.runOnce();
    }

    /** Records of this operation on the platform, and the steps the ledger says were applied. */
    async function platformState(operationId: string) {
      const records = (await allPlatformRecords(changes.app)).filter((r) => r.operation_id === operationId);
      const steps = (await platformEffects(changes.app, operationId)).map((e) => e.action);
      return { records, steps };
    }

    /**
     * Runs change_create the way a gateway process would (reserved key, recovery points written to
     * the operation store) and kills it at `dieAt`: after that recovery point was saved, or, with
     * `beforeSaving`, after the platform applied the step but before its recovery point was saved.
     */
    async function deliveryThatDies(args: Record<string, unknown>, dieAt: string, beforeSaving = false) {
      const tool = changes.app.registry.get('change_create')!;
      const input = tool.definition.input.parse(args) as Record<string, unknown>;
      const { store } = changes.app.operations;
      const now = changes.app.clock.now();
      const id = newOperationId(now);
      await store.reserve({
        id,
        tenant: engineer.tenant,
        subject: engineer.subject,
        key: String(input.idempotency_key),
        tool: 'change_create',
        contractVersion: tool.definition.version,
        fingerprint: requestFingerprint({
          tool: 'change_create',
          contractMajor: tool.definition.majorVersion,
          mode: 'execute',
          args: input,
        }),
        contentHash: null,
        mode: 'execute',
        correlationId: 'corr-died',
        now,
        leaseExpiresAt: now + 1_000,
        expiresAt: now + 3_600_000,
      });
      // The delivery runs what the user confirmed (production) or needed no confirmation.
      const asked = await tool.definition.confirm!.ask(input, {
        principal: engineer,
        signal: new AbortController().signal,
        correlationId: 'corr-died',
      });
      const confirmation =
        asked && 'message' in asked
          ? {
              via: 'client' as const,
              choice: null,
              facts: asked.facts ?? {},
              digest: 'confirmed-by-the-user',
            }
          : null;
      let saved: Record<string, unknown> = {};
      const operation: OperationHandle = {
        id,
        key: String(input.idempotency_key),
        mode: 'execute',
        checkpoints: {},
        async saveCheckpoint(name, data) {
          if (name === dieAt && beforeSaving) throw new ProcessDied();
          saved = { ...saved, [name]: data };
          await store.saveProgress(id, 'checkpoints', saved, now);
          if (name === dieAt) throw new ProcessDied();
        },
        async addExternalRef(system, ref) {
          await store.saveProgress(id, 'external_refs', { [system]: ref }, now);
        },
        commit: () => Promise.reject(new Error('change_create settles through the gateway')),
      };
      await expect(
        tool.definition.handler(input, {
          principal: engineer,
          signal: new AbortController().signal,
          deadline: Date.now() + 5_000,
          correlationId: 'corr-died',
          annotate: () => undefined,
          exceptions: noExceptions,
          operation,
          confirmation,
          log: pino({ level: 'silent' }),
        }),
      ).rejects.toThrow(ProcessDied);
      return id;
    }

    it('a crash between platform steps resumes to exactly one complete change under the same key', async () => {
      const args = productionRequest(changes.app, { dry_run: false });
      const id = await deliveryThatDies(args, 'attach_implementation_plan');
      const half = await platformState(id);
      expect(half.records).toEqual([expect.objectContaining({ state: 'draft' })]);
      const draftId = half.records[0]!.change_id;
      expect(await call(changes.app, engineer, 'change_get', { change_id: draftId })).toMatchObject({
        status: 'rejected',
        code: 'CHANGE_NOT_FOUND',
      });
      const listed = await call(changes.app, engineer, 'change_search', { service_id: 'payments-api' });
      expect((listed.result!.changes as { change_id: string }[]).map((c) => c.change_id)).not.toContain(
        draftId,
      );

      changes.app.clock.shift(2_000);
      const retry = await call(changes.app, engineer, 'change_create', args);
      expect(retry).toMatchObject({ status: 'outcome_unknown', operation_id: id, replayed: true });
      expect(await reconcileNow()).toMatchObject({ settled: 1 });

      const settled = await call(changes.app, engineer, 'change_create', args);
      expect(settled).toMatchObject({
        status: 'completed',
        replayed: true,
        operation_id: id,
        result: { change_id: draftId, state: 'pending_approval', created: true },
        warnings: [{ code: 'APPROVAL_REQUIRED' }],
      });
      const done = await platformState(id);
      expect(done.records).toEqual([{ change_id: draftId, state: 'pending_approval', operation_id: id }]);
      expect(done.steps).toEqual(ALL_STEPS);
      expect(await call(changes.app, engineer, 'change_get', { change_id: draftId })).toMatchObject({
        status: 'completed',
      });
    });

    it('a crash after the platform applied a step but before it was recorded makes no second record', async () => {
      const args = testEnvironmentRequest(changes.app, { dry_run: false });
      const id = await deliveryThatDies(args, 'create_record', true);
      expect((await platformState(id)).records).toHaveLength(1);
      changes.app.clock.shift(2_000);
      expect(await reconcileNow()).toMatchObject({ abandoned: 1, settled: 1 });
      const done = await platformState(id);
      expect(done.records).toEqual([expect.objectContaining({ state: 'scheduled' })]);
      expect(done.steps).toEqual([
        'create_record',
        'attach_implementation_plan',
        'attach_rollback_plan',
        'schedule',
      ]);
      expect((await changes.app.operations.store.findById(id))?.envelope).toMatchObject({
        status: 'completed',
        result: { change_id: done.records[0]!.change_id },
      });
    });

    it('a platform outage part-way is an unknown outcome, finished by the reconciler without duplicates', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'attach_rollback_plan' },
      });
      const args = productionRequest(changes.app, { dry_run: false });
      const unknown = await callAccepted(changes.app, engineer, 'change_create', args);
      expect(unknown).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN', retryable: true });
      expect((await platformState(unknown.operation_id!)).steps).toEqual(ALL_STEPS.slice(0, 2));
      expect(
        (await call(changes.app, engineer, 'change_search', { state: 'pending_approval' })).result,
      ).toMatchObject({
        changes: [expect.objectContaining({ service_id: 'ledger-db' })],
      });
      expect(await reconcileNow()).toMatchObject({ settled: 1 });
      const done = await platformState(unknown.operation_id!);
      expect(done.records).toHaveLength(1);
      expect(done.steps).toEqual(ALL_STEPS);
    });

    it('a lost answer to the last step settles from the platform without sending anything again', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'drop_response_after_apply',
        match: { action: 'schedule' },
      });
      const unknown = await call(
        changes.app,
        engineer,
        'change_create',
        testEnvironmentRequest(changes.app, { dry_run: false }),
      );
      expect(unknown.status).toBe('outcome_unknown');
      const before = await platformState(unknown.operation_id!);
      expect(before.records).toEqual([expect.objectContaining({ state: 'scheduled' })]);
      expect(await reconcileNow()).toMatchObject({ settled: 1 });
      expect(await platformState(unknown.operation_id!)).toEqual(before);
      expect((await changes.app.operations.store.findById(unknown.operation_id!))?.envelope).toMatchObject({
        status: 'completed',
        result: { change_id: before.records[0]!.change_id, state: 'scheduled' },
      });
    });

    it('settles as not created when the platform never saw the operation', async () => {
      const args = testEnvironmentRequest(changes.app, { dry_run: false });
      const id = await deliveryThatDies(args, 'prepared', true);
      changes.app.clock.shift(2_000);
      expect(await reconcileNow()).toMatchObject({ abandoned: 1, settled: 1 });
      expect((await changes.app.operations.store.findById(id))?.envelope).toMatchObject({
        status: 'rejected',
        code: 'CHANGE_NOT_CREATED',
      });
      expect(await platformState(id)).toEqual({ records: [], steps: [] });
    });

    it('keeps an operation unknown while the platform does not answer the reconciler', async () => {
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'attach_implementation_plan' },
      });
      const unknown = await call(
        changes.app,
        engineer,
        'change_create',
        testEnvironmentRequest(changes.app, { dry_run: false }),
      );
      simulationWorld(changes.app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'get_operation_status' },
      });
      expect(await reconcileNow()).toMatchObject({ deferred: 1 });
      expect((await changes.app.operations.store.findById(unknown.operation_id!))?.status).toBe(
        'outcome_unknown',
      );
      expect(await reconcileNow()).toMatchObject({ settled: 1 });
      expect((await platformState(unknown.operation_id!)).records).toEqual([
        expect.objectContaining({ state: 'scheduled' }),
      ]);
    });
  });
}
