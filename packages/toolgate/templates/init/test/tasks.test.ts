import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTaskService, type TaskService } from '../service/task-service.ts';
import { taskTools } from '../tools/task-tools.ts';

const ada = {
  sub: 'ada',
  tenant: 'acme',
  actor: 'customer' as const,
  scopes: ['tasks:read', 'tasks:write', 'operations:read'],
};

describe('the task tools', () => {
  let service: TaskService;
  let gateway: TestGateway;
  beforeAll(async () => {
    service = await startTaskService();
    gateway = await startTestGateway({ tools: taskTools(service.url) });
  });
  afterAll(async () => {
    await gateway?.close();
    await service?.close();
  });

  test('a create whose answer is lost is applied exactly once, and its retry replays it', async () => {
    service.loseNextAnswer();
    const args = { title: 'Call the plumber', idempotency_key: 'tasks-test-lost-answer-01' };
    const first = await gateway.callTool(ada, 'tasks_create', args);
    expect(first).toMatchObject({
      status: 'completed',
      replayed: false,
      result: { title: 'Call the plumber' },
    });
    const retry = await gateway.callTool(ada, 'tasks_create', args);
    expect(retry).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
    // The effect, not the answer: the service holds one task, and the operation is recorded completed.
    expect(service.tasks()).toHaveLength(1);
    expect(service.tasks()[0]).toMatchObject({ owner: 'acme/ada', title: 'Call the plumber' });
    expect(await gateway.operation(first.operation_id!)).toMatchObject({ status: 'completed' });
  });

  test('a read answers the task to its owner only', async () => {
    const mine = await gateway.callTool(ada, 'tasks_get', { task_id: 'task_1' });
    expect(mine).toMatchObject({ status: 'completed', result: { task_id: 'task_1' } });
    const other = await gateway.callTool({ ...ada, sub: 'bob' }, 'tasks_get', { task_id: 'task_1' });
    expect(other).toMatchObject({ status: 'rejected', code: 'TASK_NOT_FOUND' });
  });
});
