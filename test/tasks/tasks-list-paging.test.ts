import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { v1Client } from './task-client.ts';

const ALICE = 'acme-customer-alice';

describe('tasks/list pages by the configured size', () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true, app: { tasksPageSize: 2 } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("pages through every one of the caller's operations, oldest first, two to a page", async () => {
    const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as {
      orders: { all: { order_id: string; label: string }[] };
    };
    const orderId = fixtures.orders.all.find((o) => o.label === 'alice-editable')!.order_id;
    const operations: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const order = (await gw.callTool(ALICE, 'orders_get', { order_id: orderId })) as unknown as {
        result: { version: number };
      };
      const changed = (await gw.callTool(ALICE, 'orders_change_unshipped_address', {
        order_id: orderId,
        expected_order_version: order.result.version,
        new_address: ADDRESS_SAMPLES.clean_us!,
        idempotency_key: `tasks-paging-${Date.now().toString(36)}-${i}`,
      })) as { status: string; operation_id: string };
      expect(changed.status).toBe('completed');
      operations.push(changed.operation_id);
    }
    const client = await v1Client(gw, ALICE);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.experimental.tasks.listTasks(cursor);
      pages.push(page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(operations);
    const invented = await client.experimental.tasks.listTasks('page-2').catch((e: unknown) => e);
    expect(invented).toBeInstanceOf(McpError);
    expect((invented as McpError).code).toBe(-32602);
  });
});
