import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/principal.ts';
import type { PrincipalSource } from '../transport/mcp-server.ts';
import type { OperationTasks } from './operation-tasks.ts';
import { missingTasksScope } from './task-request-checks.ts';

/** The first protocol revision that defines tasks (dates compare as strings). */
export const TASKS_SINCE_PROTOCOL = '2025-11-25';

/** What the server announces: task-augmented tools/call, tasks/get, tasks/result, tasks/list, tasks/cancel. */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

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
  server.setRequestHandler(GetTaskRequestSchema, async (request, extra) =>
    tasks.get(await caller(extra, request.method), request.params.taskId),
  );
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) =>
    tasks.result(await caller(extra, request.method), request.params.taskId, extra.signal),
  );
  server.setRequestHandler(ListTasksRequestSchema, async (request, extra) =>
    tasks.list(await caller(extra, request.method), request.params?.cursor),
  );
  server.setRequestHandler(CancelTaskRequestSchema, async (request, extra) =>
    tasks.cancel(await caller(extra, request.method), request.params.taskId),
  );
}
