import type { TokenSubject } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { legacyRequest, modernRawRequest, type RawAnswer } from './raw-task-requests.ts';

const CHANGE = 'orders_change_unshipped_address';
const NEW_ADDRESS = ADDRESS_SAMPLES.clean_us!;
/** Alice as the demo principal is, and the same subject with a token that carries no scope. */
const ALICE: TokenSubject = {
  sub: 'cus_acme_alice',
  tenant: 'acme',
  actor: 'customer',
  scopes: ['orders:read', 'orders:write', 'operations:read'],
};
const ALICE_UNSCOPED: TokenSubject = { ...ALICE, scopes: [] };
/** Every scope but the one operations_get needs. */
const ALICE_WITHOUT_OPERATIONS: TokenSubject = { ...ALICE, scopes: ['orders:read', 'orders:write'] };

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`tasks/* need operations_get's scope, on ${target.dialect}`, () => {
    let gw: StartedGateway;
    let location: StoreLocation;
    let taskId: string;
    beforeAll(async () => {
      location = await target.create();
      gw = await startGateway({ databaseUrl: location.config.databaseUrl, testApi: true });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });
    beforeEach(async () => {
      expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
      const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
      const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
      const changed = await gw.callTool(ALICE, CHANGE, {
        order_id: order.order_id,
        expected_order_version: order.version,
        new_address: NEW_ADDRESS,
        idempotency_key: `tasks-scope-${Date.now().toString(36)}`,
      });
      expect(changed.status).toBe('completed');
      taskId = changed.operation_id!;
      expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
    });

    /** The refusal, and none of the stored outcome anywhere in what was answered. */
    const expectRefused = (answer: RawAnswer, method: string) => {
      expect(answer.body.error).toMatchObject({
        code: -32000,
        message: `Forbidden: ${method} requires scope operations:read.`,
        data: { requiredScopes: ['operations:read'] },
      });
      expect(answer.body.result).toBeUndefined();
      expect(answer.text).not.toContain(NEW_ADDRESS.address_line_1);
      expect(answer.text).not.toContain(taskId);
    };

    it('operations_get is FORBIDDEN to a token without operations:read: the reference', async () => {
      for (const subject of [ALICE_UNSCOPED, ALICE_WITHOUT_OPERATIONS]) {
        const read = await gw.callTool(subject, 'operations_get', { operation_id: taskId });
        expect(read).toMatchObject({ status: 'failed', code: 'FORBIDDEN', result: null });
      }
      const allowed = await gw.callTool(ALICE, 'operations_get', { operation_id: taskId });
      expect(JSON.stringify(allowed)).toContain(NEW_ADDRESS.address_line_1);
    });

    it('2025-11-25: tasks/get, tasks/result, tasks/list and tasks/cancel are refused without it', async () => {
      for (const subject of [ALICE_UNSCOPED, ALICE_WITHOUT_OPERATIONS]) {
        const token = await gw.tokenFor(subject);
        for (const [method, params] of [
          ['tasks/get', { taskId }],
          ['tasks/result', { taskId }],
          ['tasks/list', {}],
          ['tasks/cancel', { taskId }],
        ] as const) {
          expectRefused(await legacyRequest(gw.url, token, method, params), method);
        }
      }
      // The task is untouched by the refused cancel, and the scoped token reads it as before.
      const token = await gw.tokenFor(ALICE);
      const result = await legacyRequest(gw.url, token, 'tasks/result', { taskId });
      expect(result.body.result).toMatchObject({ structuredContent: { status: 'completed' } });
      expect(result.text).toContain(NEW_ADDRESS.address_line_1);
      const list = await legacyRequest(gw.url, token, 'tasks/list', {});
      expect(list.text).toContain(taskId);
      const get = await legacyRequest(gw.url, token, 'tasks/get', { taskId });
      expect(get.body.result).toMatchObject({ taskId, status: 'completed' });
      expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
    });

    it("another principal's task id reads no row of it from the store: the owner is in the query", async () => {
      const MALLORY: TokenSubject = { ...ALICE, sub: 'cus_acme_mallory' };
      const STRANGER: TokenSubject = { ...ALICE, tenant: 'globex' };
      const read = vi.spyOn(gw.app.db, 'query');
      try {
        for (const who of [MALLORY, STRANGER]) {
          const token = await gw.tokenFor(who);
          const legacy = await legacyRequest(gw.url, token, 'tasks/get', { taskId });
          const modern = await modernRawRequest(gw.url, token, 'tasks/get', { taskId });
          for (const answer of [legacy, modern]) {
            expect(answer.body.error?.message).toMatch(/Task not found/);
            expect(answer.text).not.toContain(NEW_ADDRESS.address_line_1);
          }
          const envelope = await gw.callTool(who, 'operations_get', { operation_id: taskId });
          expect(envelope).toMatchObject({ status: 'rejected', code: 'OPERATION_NOT_FOUND' });
        }
        const readsOfTheTask = read.mock.calls
          .map((call, i) => ({ sql: String(call[0]), params: call[1] ?? [], rows: read.mock.results[i] }))
          .filter(({ sql, params }) => /FROM operations\b/.test(sql) && params.includes(taskId));
        expect(readsOfTheTask.length).toBeGreaterThanOrEqual(6);
        for (const { rows } of readsOfTheTask) expect(await rows!.value).toEqual([]);
      } finally {
        read.mockRestore();
      }
    });

    it('2026-07-28: tasks/get, tasks/update and tasks/cancel are refused without it', async () => {
      for (const subject of [ALICE_UNSCOPED, ALICE_WITHOUT_OPERATIONS]) {
        const token = await gw.tokenFor(subject);
        for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
          expectRefused(await modernRawRequest(gw.url, token, method, { taskId }), method);
        }
      }
      const token = await gw.tokenFor(ALICE);
      const get = await modernRawRequest(gw.url, token, 'tasks/get', { taskId });
      expect(get.body.result).toMatchObject({ taskId, status: 'completed' });
      expect(get.text).toContain(NEW_ADDRESS.address_line_1);
      const cancel = await modernRawRequest(gw.url, token, 'tasks/cancel', { taskId });
      expect(cancel.body.result).toMatchObject({
        _meta: { 'io.toolgate/cancellation': { cancelled: false, status: 'completed' } },
      });
      expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
    });
  });
}
