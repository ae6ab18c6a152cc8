import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { PrincipalSource } from '../transport/server-2025.ts';
import type { OperationTasks } from './operation-tasks.ts';
import { cursorOf, missingTasksScope, taskIdOf } from './task-request-checks.ts';

/** The first protocol revision that defines tasks (dates compare as strings). */
export const TASKS_SINCE_PROTOCOL = '2025-11-25';

/** What the server announces: task-augmented tools/call, tasks/get, tasks/result, tasks/list, tasks/cancel. */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

/**
 * A tasks/* request as the SDK hands it over, its params unchecked: the handler checks the scope
 * first and then the params, so a malformed one is a short -32602 naming the field rather than the
 * SDK's -32603 with its validation dump.
 */
const requestOf = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.unknown().optional() });

/**
 * Answers tasks/get, tasks/result, tasks/list and tasks/cancel from the durable operations, to a caller
 * holding operations_get's scope.
 */
export function serveTasks(server: Server, tasks: OperationTasks, principalOf: PrincipalSource): void {
  const caller = async (extra: Parameters<PrincipalSource>[0], method: string): Promise<Principal> => {
    const principal = await principalOf(extra);
    if (!principal) throw new McpError(ErrorCode.InvalidRequest, 'Tasks belong to an authenticated caller.');
    const refusal = missingTasksScope(principal, method);
    if (refusal) throw refusal;
    return principal;
  };
  server.setRequestHandler(requestOf('tasks/get'), async (request, extra) => {
    const principal = await caller(extra, request.method);
    return tasks.get(principal, taskIdOf(request.params, request.method));
  });
  server.setRequestHandler(requestOf('tasks/result'), async (request, extra) => {
    const principal = await caller(extra, request.method);
    return tasks.result(principal, taskIdOf(request.params, request.method), extra.signal);
  });
  server.setRequestHandler(requestOf('tasks/list'), async (request, extra) => {
    const principal = await caller(extra, request.method);
    return tasks.list(principal, cursorOf(request.params));
  });
  server.setRequestHandler(requestOf('tasks/cancel'), async (request, extra) => {
    const principal = await caller(extra, request.method);
    return tasks.cancel(principal, taskIdOf(request.params, request.method));
  });
}
