import { simulationWorld } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { newKey } from './changes-harness.ts';

const ENGINEER = 'changes_engineer';

/**
 * change_create reports what the change platform answered, checked against the record's contract,
 * never a copy read from the platform's own table: a platform that stops sending `state` is seen by
 * change_create as by change_get, and the change is not reported as done (nor made twice).
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `change_create reads the platform's answer, on ${target.dialect}`,
    () => {
      const on = gatewayOnStore(target, { modules: [changesDomain] });
      const { clock } = on;

      const request = () => ({
        service_id: 'checkout-web',
        environment: 'test',
        summary: 'Enable new checkout layout in test',
        implementation_plan:
          'Turn on the layout flag in test, deploy, and run the checkout smoke suite twice.',
        rollback_plan: 'Turn the layout flag off again and redeploy if the smoke suite fails.',
        start_time: new Date(clock.now() + 2 * 3_600_000).toISOString(),
        duration_minutes: 60,
        risk: 'low',
        idempotency_key: newKey('answer'),
        dry_run: false,
      });

      it('an answer without state is an unknown outcome naming the gap; reconciliation settles it with one change', async () => {
        simulationWorld(on.gw.app.db).faults.arm({
          target: 'change_platform',
          fault: 'omit_field',
          match: { action: 'schedule' },
          params: { field: 'state' },
        });
        const args = request();
        const answer = await on.gw.callTool(ENGINEER, 'change_create', args);
        expect(answer).toMatchObject({
          ok: false,
          status: 'outcome_unknown',
          code: 'OUTPUT_CONTRACT_VIOLATION',
          category: 'internal',
          result: null,
        });
        expect(answer.message).toContain('state');
        expect(answer.resolution).toContain('same idempotency_key');
        const records = await on.gw.app.db.query<{ change_id: string; state: string }>(
          'SELECT change_id, state FROM ext_change_records WHERE operation_id = ?',
          [answer.operation_id],
        );
        expect(records).toEqual([{ change_id: expect.any(String), state: 'scheduled' }]);

        // The reconciler does not trust a status answer with the same gap either: it asks again later.
        simulationWorld(on.gw.app.db).faults.arm({
          target: 'change_platform',
          fault: 'omit_field',
          match: { action: 'get_operation_status' },
          params: { field: 'record.state' },
        });
        clock.shift(60_000);
        await on.gw.app.operations.reconciler.runOnce();
        const still = await on.gw.callTool(ENGINEER, 'operations_get', { operation_id: answer.operation_id });
        expect(still.result).toMatchObject({ status: 'outcome_unknown' });
        expect(JSON.stringify(still.result)).toContain('breaks its contract (state)');

        clock.shift(60_000);
        await on.gw.app.operations.reconciler.runOnce();
        const settled = await on.gw.callTool(ENGINEER, 'change_create', args);
        expect(settled).toMatchObject({
          status: 'completed',
          replayed: true,
          result: { change_id: records[0]!.change_id, state: 'scheduled', created: true },
        });
        const effects = await simulationWorld(on.gw.app.db).ledger.list({
          system: 'change_platform',
          action: 'create_record',
        });
        expect(effects).toHaveLength(1);
      });

      it('change_get sees the same regression the same way', async () => {
        const made = await on.gw.callTool(ENGINEER, 'change_create', request());
        expect(made.status).toBe('completed');
        simulationWorld(on.gw.app.db).faults.arm({
          target: 'change_platform',
          fault: 'omit_field',
          match: { action: 'get_change' },
          params: { field: 'state' },
        });
        const read = await on.gw.callTool(ENGINEER, 'change_get', { change_id: made.result!.change_id });
        expect(read).toMatchObject({ status: 'failed', code: 'OUTPUT_CONTRACT_VIOLATION' });
      });
    },
  );
}
