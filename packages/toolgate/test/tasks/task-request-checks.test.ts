import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import type { OperationStore } from '../../src/operations/operation-store.ts';
import { operationsGetTool } from '../../src/operations/operations-get-tool.ts';
import { OperationTasks } from '../../src/tasks/operation-tasks.ts';
import {
  cursorOf,
  echoOf,
  MAX_TASK_ID_LENGTH,
  missingTasksScope,
  TASKS_SCOPE,
  taskIdOf,
} from '../../src/tasks/task-request-checks.ts';

const owner: Principal = {
  subject: 'cus_1',
  tenant: 'acme',
  actor: 'customer',
  scopes: new Set([TASKS_SCOPE]),
} as Principal;

describe('what a tasks/* request must satisfy before any store lookup', () => {
  it('needs exactly the scope operations_get needs', () => {
    const store = {} as OperationStore;
    expect(operationsGetTool(store).scopes).toEqual([TASKS_SCOPE]);
    expect(missingTasksScope(owner, 'tasks/get')).toBeNull();
    expect(missingTasksScope({ ...owner, scopes: new Set() }, 'tasks/get')).toMatchObject({
      code: -32000,
      data: { requiredScopes: [TASKS_SCOPE] },
    });
  });

  it('takes a string taskId up to the maximum, and refuses anything else naming the field', () => {
    expect(taskIdOf({ taskId: 'op_1' }, 'tasks/get')).toBe('op_1');
    for (const params of [undefined, {}, { taskId: 5 }, { taskId: 'x'.repeat(MAX_TASK_ID_LENGTH + 1) }, []]) {
      expect(() => taskIdOf(params, 'tasks/get')).toThrow(/Invalid params/);
    }
    expect(cursorOf(undefined)).toBeUndefined();
    expect(() => cursorOf({ cursor: 'x'.repeat(MAX_TASK_ID_LENGTH + 1) })).toThrow(/params\.cursor/);
  });

  it('an oversized task id is never looked up; an echo is capped with an ellipsis', async () => {
    let lookups = 0;
    const store = {
      findOwned: async () => {
        lookups += 1;
        return null;
      },
    } as unknown as OperationStore;
    const tasks = new OperationTasks({
      store,
      timing: { ttlMs: 1, pollIntervalMs: 1 },
      logger: pino({ level: 'silent' }),
    });
    const oversized = `op_${'A'.repeat(MAX_TASK_ID_LENGTH)}`;
    expect(await tasks.find(owner, oversized)).toBeNull();
    expect(lookups).toBe(0);
    await tasks.find(owner, 'op_01JD3Q5W7X9Y2Z4A6B8C0D1E2F');
    expect(lookups).toBe(1);
    expect(echoOf('a'.repeat(65))).toBe(`${'a'.repeat(64)}…`);
    expect(echoOf('short')).toBe('short');
  });
});
