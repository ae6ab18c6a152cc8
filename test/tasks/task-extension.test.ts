import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import type { OutcomeEnvelope } from 'toolgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { modernRequest, TASKS_EXTENSION, taskSession } from './extension-client.ts';

const ALICE = 'acme-customer-alice';
const CHANGE = 'orders_change_unshipped_address';

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

let keySeq = 0;
const newKey = () => {
  keySeq += 1;
  return `ext-task-${Date.now().toString(36)}-${keySeq}`;
};

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `durable operations as ${TASKS_EXTENSION} tasks, on ${target.dialect}`,
    () => {
      let gw: StartedGateway;
      let location: StoreLocation;
      let fixtures: Fixtures;
      let token: string;
      beforeAll(async () => {
        location = await target.create();
        gw = await startGateway({
          databaseUrl: location.config.databaseUrl,
          testApi: true,
          app: { operations: { reconcileIntervalMs: 50 } },
        });
        token = await gw.tokenFor(ALICE);
      });
      afterAll(async () => {
        await gw?.close();
        await location?.dispose();
      });
      beforeEach(async () => {
        expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
        fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
      });

      const editable = () => fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
      const changeArgs = (key = newKey()) => ({
        order_id: editable().order_id,
        expected_order_version: editable().version,
        new_address: ADDRESS_SAMPLES.clean_us!,
        idempotency_key: key,
      });
      const warehouseEffects = async () =>
        (
          (await gw.testApi('GET', `/test-api/effects?target=warehouse&ref=${editable().order_id}`)).body as {
            effects: unknown[];
          }
        ).effects;
      /** Polls tasks/get until the task is no longer working; answers its last state. */
      const settled = async (taskId: string) => {
        let task = (await modernRequest(gw.url, token, 'tasks/get', { taskId })).body.result!;
        for (let i = 0; task.status === 'working' && i < 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          task = (await modernRequest(gw.url, token, 'tasks/get', { taskId })).body.result!;
        }
        return task;
      };
      const arm = async (fault: string, params?: Record<string, unknown>) =>
        expect(
          (
            await gw.testApi('POST', '/test-api/faults', {
              target: 'warehouse',
              fault,
              match: { action: 'apply_address_update' },
              ...(params ? { params } : {}),
            })
          ).status,
        ).toBe(201);

      /** An address change the warehouse answers only after `ms`: answered as a working task; its id. */
      const slowChangeTask = async (ms: number) => {
        await arm('delay_ms', { ms });
        const created = await modernRequest(gw.url, token, 'tools/call', {
          name: CHANGE,
          arguments: changeArgs(),
        });
        expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
        return created.body.result!.taskId as string;
      };

      it('server/discover announces the extension', async () => {
        const answer = await modernRequest(gw.url, token, 'server/discover', {});
        expect(answer.body.result?.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
      });

      it('a write that settles at once is answered immediately, even to a client that accepts tasks', async () => {
        const { session, close } = await taskSession(gw.url, token);
        try {
          const execution = await session.callTool(CHANGE, changeArgs());
          expect(execution.kind).toBe('immediate');
          const { outcome } = await execution.settle();
          const result = resultFromTaskOutcome(outcome) as unknown as { structuredContent: OutcomeEnvelope };
          expect(result.structuredContent).toMatchObject({ status: 'completed', replayed: false });
          expect(await warehouseEffects()).toHaveLength(1);
        } finally {
          await close();
        }
      });

      it('a slow write becomes a task that the Tasks requester follows to its completed envelope', async () => {
        await arm('delay_ms', { ms: 1_800 });
        const { session, close } = await taskSession(gw.url, token);
        try {
          const execution = await session.callTool(CHANGE, changeArgs());
          expect(execution.kind).toBe('task');
          const taskId = execution.handle!.taskId;
          expect(taskId).toMatch(/^op_/);
          const { outcome } = await execution.settle();
          const result = resultFromTaskOutcome(outcome) as unknown as { structuredContent: OutcomeEnvelope };
          expect(result.structuredContent).toMatchObject({ status: 'completed', operation_id: taskId });
          expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
          expect(await warehouseEffects()).toHaveLength(1);
        } finally {
          await close();
        }
      });

      it('a lost answer is a working task while it is reconciled, then completed, with one effect', async () => {
        await arm('drop_response_after_apply');
        const created = await modernRequest(gw.url, token, 'tools/call', {
          name: CHANGE,
          arguments: changeArgs(),
        });
        expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
        const taskId = created.body.result!.taskId as string;
        expect(created.body.result!.statusMessage).toMatch(/^Outcome unknown/);
        const task = await settled(taskId);
        expect(task).toMatchObject({ resultType: 'complete', status: 'completed', taskId });
        expect((task.result as { structuredContent: OutcomeEnvelope }).structuredContent).toMatchObject({
          status: 'completed',
          operation_id: taskId,
        });
        expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
        expect(await warehouseEffects()).toHaveLength(1);
      });

      it('a cancel is acknowledged and says it undid nothing; the write goes on to its outcome', async () => {
        const taskId = await slowChangeTask(1_800);
        const cancel = await modernRequest(gw.url, token, 'tasks/cancel', { taskId });
        expect(cancel.status).toBe(200);
        expect(cancel.body.result).toMatchObject({
          resultType: 'complete',
          _meta: { 'io.toolgate/cancellation': { cancelled: false, status: 'working' } },
        });
        expect((await settled(taskId)).status).toBe('completed');
        expect(await warehouseEffects()).toHaveLength(1);
      });

      it('tasks are the caller’s own, need the extension declared, and tasks/list and tasks/result are gone', async () => {
        const taskId = await slowChangeTask(1_500);
        const other = await gw.tokenFor('acme-customer-bob');
        const foreign = await modernRequest(gw.url, other, 'tasks/get', { taskId }, { id: 'f' });
        expect(foreign.body).toMatchObject({ id: 'f', error: { code: -32602 } });
        const undeclared = await modernRequest(gw.url, token, 'tasks/get', { taskId }, { capabilities: {} });
        expect(undeclared.body.error).toMatchObject({
          code: -32021,
          data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        });
        for (const method of ['tasks/list', 'tasks/result']) {
          const gone = await modernRequest(gw.url, token, method, { taskId });
          expect(gone.body.error?.code).toBe(-32601);
        }
        await settled(taskId);
        fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
        // Without the extension on the call, the same slow write waits for its result: no task.
        await arm('delay_ms', { ms: 1_200 });
        const plain = await modernRequest(
          gw.url,
          token,
          'tools/call',
          { name: CHANGE, arguments: changeArgs() },
          { capabilities: {} },
        );
        expect(plain.body.result).toMatchObject({
          resultType: 'complete',
          structuredContent: { status: 'completed' },
        });
        expect(await warehouseEffects()).toHaveLength(2);
      });
    },
  );
}
