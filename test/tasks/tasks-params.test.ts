import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { legacyRequest, modernRawRequest, type RawAnswer } from './raw-task-requests.ts';

const ALICE = 'acme-customer-alice';
/** Far past any task id, well within the request body limit. */
const HUGE = 'x'.repeat(900_000);
/** Longer than a task id may be, yet short enough for the `Mcp-Name` header to mirror it. */
const LONG = `op_${'Y'.repeat(4_000)}`;
/** No answer to a malformed request quotes more than this. */
const SMALL_BYTES = 400;

describe('malformed tasks/* params are -32602, short, and naming the field', () => {
  let gw: StartedGateway;
  let token: string;
  let taskId: string;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
    token = await gw.tokenFor(ALICE);
    const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as {
      orders: { all: { order_id: string; label: string; version: number }[] };
    };
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    const changed = await gw.callTool(ALICE, 'orders_change_unshipped_address', {
      order_id: order.order_id,
      expected_order_version: order.version,
      new_address: ADDRESS_SAMPLES.clean_us!,
      idempotency_key: `tasks-params-${Date.now().toString(36)}`,
    });
    taskId = changed.operation_id!;
  });
  afterAll(async () => {
    await gw?.close();
  });

  const expectInvalid = (answer: RawAnswer, field: string) => {
    expect(answer.body.error?.code).toBe(-32602);
    expect(answer.body.error?.message).toContain(`params.${field}`);
    expect(answer.bytes).toBeLessThan(SMALL_BYTES);
    expect(answer.text).not.toContain('xxxxxxxxxx');
    expect(answer.text).not.toContain('YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY');
    expect(answer.text).not.toContain('invalid_type');
  };

  it('2025-11-25: a missing, non-string or oversized taskId, and an oversized cursor', async () => {
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expectInvalid(await legacyRequest(gw.url, token, method, {}), 'taskId');
      expectInvalid(await legacyRequest(gw.url, token, method, { taskId: 5 }), 'taskId');
      expectInvalid(await legacyRequest(gw.url, token, method, { taskId: HUGE }), 'taskId');
      expectInvalid(await legacyRequest(gw.url, token, method, { taskId: LONG }), 'taskId');
    }
    expectInvalid(await legacyRequest(gw.url, token, 'tasks/list', { cursor: HUGE }), 'cursor');
    expectInvalid(await legacyRequest(gw.url, token, 'tasks/list', { cursor: 5 }), 'cursor');
    // A well-formed request is answered as before, and the task is unchanged.
    const get = await legacyRequest(gw.url, token, 'tasks/get', { taskId });
    expect(get.body.result).toMatchObject({ taskId, status: 'completed' });
    expect(await gw.operation(taskId)).toMatchObject({ status: 'completed' });
  });

  it('2026-07-28: a missing, non-string or oversized taskId', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expectInvalid(await modernRawRequest(gw.url, token, method, {}), 'taskId');
      expectInvalid(await modernRawRequest(gw.url, token, method, { taskId: 5 }), 'taskId');
      expectInvalid(await modernRawRequest(gw.url, token, method, { taskId: HUGE }), 'taskId');
      expectInvalid(await modernRawRequest(gw.url, token, method, { taskId: LONG }), 'taskId');
    }
    const get = await modernRawRequest(gw.url, token, 'tasks/get', { taskId });
    expect(get.body.result).toMatchObject({ taskId, status: 'completed' });
  });

  it('an unknown task id is quoted at most 64 characters long', async () => {
    const unknown = `op_${'Z'.repeat(100)}`;
    for (const answer of [
      await legacyRequest(gw.url, token, 'tasks/get', { taskId: unknown }),
      await modernRawRequest(gw.url, token, 'tasks/get', { taskId: unknown }),
    ]) {
      expect(answer.body.error?.code).toBe(-32602);
      expect(answer.body.error?.message).toContain(`Task not found: ${unknown.slice(0, 64)}…`);
      expect(answer.text).not.toContain(unknown.slice(0, 65));
    }
  });
});
