import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { ConfirmationQuestion } from '../gateway/confirmation-types.ts';
import type { Gateway, ToolCallRequest } from '../gateway/gateway.ts';
import type { OperationRecord } from '../operations/operation-record.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import { echoOf, missingTasksScope, TaskRequestError, taskIdOf } from '../tasks/task-request-checks.ts';
import { type TaskTiming, taskStatusOf } from '../tasks/task-view.ts';
import { toolResult } from './tool-results.ts';

/** The Tasks extension of MCP 2026-07-28 (SEP-2663): tasks/get, tasks/update, tasks/cancel. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * How long a write/request call of a client that accepts tasks is waited for before it is answered as a
 * task instead. A call that settles sooner answers its result at once: most writes never become tasks.
 */
export const TASK_AFTER_MS = 1_000;

const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
const INVALID_PARAMS = -32602;

/** A task as tasks/get answers it on 2026-07-28: the task, and the tool's result once it is settled. */
export interface ExtensionTask {
  readonly taskId: string;
  readonly status: 'working' | 'completed';
  readonly statusMessage: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly result?: ReturnType<typeof toolResult> & { readonly resultType: 'complete' };
}

/**
 * The extension's view of an operation. Every settled outcome is `completed` with the envelope as the
 * tool result (a `failed` envelope is a tool result with `isError`, which the extension counts as
 * completed: its `failed` status is for JSON-RPC errors only); anything that may still change, including
 * an unknown outcome being reconciled or awaiting review, is `working`.
 */
export function extensionTaskOf(record: OperationRecord, timing: TaskTiming): ExtensionTask {
  const { status, message } = taskStatusOf(record);
  const settled = status !== 'working' && record.envelope !== null;
  const base = {
    taskId: record.id,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    ttlMs: timing.ttlMs,
    pollIntervalMs: timing.pollIntervalMs,
  };
  if (!settled) return { ...base, status: 'working', statusMessage: message };
  return {
    ...base,
    status: 'completed',
    statusMessage: `Settled as ${record.status}.`,
    // The inlined result is the tools/call result it stands for, discriminator included.
    result: { ...toolResult(record.envelope!), resultType: 'complete' },
  };
}

/** True when this request's own declared client capabilities include the Tasks extension. */
export function acceptsTasks(ctx: ServerContext): boolean {
  return acceptsTasksIn(ctx.mcpReq.envelope);
}

/** The same, read from a request's `_meta` (or its lifted envelope). */
export function acceptsTasksIn(meta: unknown): boolean {
  const capabilities = (meta as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/**
 * A tools/call of a write or request tool from a client that accepts tasks. The server decides: the
 * call runs without the HTTP request's abort signal (a task outlives its request); if it settles within
 * `TASK_AFTER_MS` its result is answered at once, otherwise (still running, or an outcome that is
 * unknown and being reconciled) the answer is the operation as a task. A refusal before anything ran has
 * no operation and is answered as the tool result it is.
 */
export async function callToolServerDirected(
  gateway: Gateway,
  tasks: OperationTasks,
  request: ToolCallRequest,
  principal: Principal,
  toAsk: (question: ConfirmationQuestion) => Promise<Record<string, unknown>> = () => {
    throw new Error('a call that cannot ask its user was answered with a question');
  },
): Promise<Record<string, unknown>> {
  let reservedId: string | null = null;
  let reserved: () => void = () => undefined;
  const reservation = new Promise<void>((resolve) => {
    reserved = resolve;
  });
  const execution = gateway.call(
    {
      ...request,
      onReserved: (operationId) => {
        reservedId = operationId;
        reserved();
      },
    },
    principal,
  );
  const waited = reservation.then(
    () => new Promise<null>((resolve) => setTimeout(() => resolve(null), TASK_AFTER_MS)),
  );
  const answered = await Promise.race([execution, waited]);
  if (answered?.kind === 'ask') return toAsk(answered.question);
  const first = answered === null ? null : answered.envelope;
  if (first === null) {
    execution.catch((error: unknown) =>
      tasks.logger.error({ err: error, op: reservedId }, 'task execution failed after its task was created'),
    );
    return taskHandle(tasks, principal, reservedId!);
  }
  if (first.operation_id !== null && !isSettled(first))
    return taskHandle(tasks, principal, first.operation_id);
  return toolResult(first);
}

function isSettled(envelope: OutcomeEnvelope): boolean {
  return envelope.status !== 'outcome_unknown' && envelope.status !== 'in_progress';
}

async function taskHandle(
  tasks: OperationTasks,
  principal: Principal,
  operationId: string,
): Promise<Record<string, unknown>> {
  const record = await tasks.find(principal, operationId);
  if (!record) throw new ProtocolError(INVALID_PARAMS, `Task not found: ${operationId}.`);
  const { result: _, ...task } = extensionTaskOf(record, tasks.timing);
  return { ...task, resultType: 'task' };
}

// The params are checked by the handler, after the scope, so that a malformed one is answered as on
// 2025-11-25: a short -32602 naming the field, quoting at most a capped part of what was sent.
const taskParams = z.looseObject({});
const updateParams = z.looseObject({ inputResponses: z.record(z.string(), z.unknown()).optional() });

/**
 * tasks/get, tasks/update and tasks/cancel from the durable operations, for one request's principal
 * holding operations_get's scope. A client that did not declare the extension on this request is
 * answered -32021; a task that is not the caller's own is -32602, the same as one that does not exist. tasks/list and tasks/result are
 * gone in this revision and stay unregistered (-32601).
 */
export function serveTaskExtension(
  server: Server,
  tasks: OperationTasks,
  principalOf: (ctx: ServerContext) => Principal | null | Promise<Principal | null>,
): void {
  const own = async (params: unknown, ctx: ServerContext): Promise<OperationRecord> => {
    if (!acceptsTasks(ctx)) {
      throw new ProtocolError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        `Missing required client capability: ${ctx.mcpReq.method} needs the ${TASKS_EXTENSION} extension declared in this request's clientCapabilities.`,
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      );
    }
    const principal = await principalOf(ctx);
    const method = ctx.mcpReq.method;
    try {
      const refusal = principal ? missingTasksScope(principal, method) : null;
      if (refusal) throw refusal;
      const taskId = taskIdOf(params, method);
      const record = principal ? await tasks.find(principal, taskId) : null;
      if (!record) throw new ProtocolError(INVALID_PARAMS, `Task not found: ${echoOf(taskId)}.`);
      return record;
    } catch (error) {
      if (error instanceof TaskRequestError) throw new ProtocolError(error.code, error.message, error.data);
      throw error;
    }
  };
  server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => ({
    ...extensionTaskOf(await own(params, ctx), tasks.timing),
  }));
  // No task of ours ever asks for input, so no response is outstanding: each is ignored, as the
  // extension says of responses to keys that are not outstanding.
  server.setRequestHandler('tasks/update', { params: updateParams }, async (params, ctx) => {
    await own(params, ctx);
    return {};
  });
  // A task exists only once its operation executes, so its write may already have reached the owning
  // system: a cancel is acknowledged, as the extension requires, and never undoes anything. The
  // acknowledgement says so; the task goes on to its real outcome.
  server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    const task = extensionTaskOf(await own(params, ctx), tasks.timing);
    const reason =
      task.status === 'completed'
        ? `task ${task.taskId} is already settled; nothing to cancel`
        : `task ${task.taskId} has started executing and may already have reached the owning system; a cancel is not an undo, the task continues to its outcome`;
    return { _meta: { 'io.toolgate/cancellation': { cancelled: false, status: task.status, reason } } };
  });
}
