import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import type { OperationStore } from '../../src/operations/operation-store.ts';
import { operationsGetTool } from '../../src/operations/operations-get-tool.ts';
import { missingTasksScope, TASKS_SCOPE } from '../../src/tasks/task-request-checks.ts';

const owner: Principal = {
  subject: 'cus_1',
  tenant: 'acme',
  actor: 'customer',
  scopes: new Set([TASKS_SCOPE]),
} as Principal;

describe('the scope a tasks/* request needs', () => {
  it('needs exactly the scope operations_get needs', () => {
    const store = {} as OperationStore;
    expect(operationsGetTool(store).scopes).toEqual([TASKS_SCOPE]);
    expect(missingTasksScope(owner, 'tasks/get')).toBeNull();
    expect(missingTasksScope({ ...owner, scopes: new Set() }, 'tasks/get')).toMatchObject({
      code: -32000,
      data: { requiredScopes: [TASKS_SCOPE] },
    });
  });
});
