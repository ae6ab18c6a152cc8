import {
  ProtocolError,
  RELATED_TASK_META_KEY,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import { cursorOf, missingTasksScope, taskIdOf } from '../tasks/task-request-checks.ts';
import { toolResult } from './tool-results.ts';
import type { PrincipalOf } from './tool-server.ts';

/** The first protocol revision that defines tasks (dates compare as strings). */
export const TASKS_SINCE_PROTOCOL = '2025-11-25';

/** What the server announces: task-augmented tools/call, tasks/get, tasks/result, tasks/list, tasks/cancel. */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

const INVALID_REQUEST = -32600;

/**
 * A tasks/* request's params as the SDK hands them over, unchecked: the handler checks the scope first
 * and then the params, so a malformed one is a short -32602 naming the field rather than the SDK's
 * validation dump.
 */
const uncheckedParams = { params: z.unknown() };

/**
 * Answers tasks/get, tasks/result, tasks/list and tasks/cancel of 2025-11-25 from the durable
 * operations, to a caller holding operations_get's scope.
 */
export function serveTasks(server: Server, tasks: OperationTasks, principalOf: PrincipalOf): void {
  const caller = async (ctx: Parameters<PrincipalOf>[0]): Promise<Principal> => {
    const principal = await principalOf(ctx);
    if (!principal) throw new ProtocolError(INVALID_REQUEST, 'Tasks belong to an authenticated caller.');
    const refusal = missingTasksScope(principal, ctx.mcpReq.method);
    if (refusal) throw refusal;
    return principal;
  };
  server.setRequestHandler('tasks/get', uncheckedParams, async (params, ctx) => {
    const principal = await caller(ctx);
    return tasks.get(principal, taskIdOf(params, ctx.mcpReq.method));
  });
  server.setRequestHandler('tasks/result', uncheckedParams, async (params, ctx) => {
    const principal = await caller(ctx);
    const taskId = taskIdOf(params, ctx.mcpReq.method);
    const envelope = await tasks.result(principal, taskId, ctx.mcpReq.signal);
    return { ...toolResult(envelope), _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
  });
  server.setRequestHandler('tasks/list', uncheckedParams, async (params, ctx) => {
    const principal = await caller(ctx);
    return tasks.list(principal, cursorOf(params));
  });
  server.setRequestHandler('tasks/cancel', uncheckedParams, async (params, ctx) => {
    const principal = await caller(ctx);
    return tasks.cancel(principal, taskIdOf(params, ctx.mcpReq.method));
  });
}
