import type { Principal } from '../auth/principal.ts';

/**
 * The scope every tasks/* method needs: operations_get's. A task is an operation, and tasks/get,
 * tasks/result and tasks/list read its stored outcome, so they are the same read under another name.
 */
export const TASKS_SCOPE = 'operations:read';

/** Tasks per tasks/list page unless `serve` is told otherwise (`--tasks-page-size`). */
export const DEFAULT_TASKS_PAGE_SIZE = 50;

/**
 * An authorization refusal of a tasks/* method. Neither task specification defines one (their codes are
 * -32602 for an unknown task, -32603 and -32021), so it takes the implementation-defined server error the
 * HTTP layer already answers "Forbidden: ..." with, and names the scope in `data`.
 */
export const FORBIDDEN = -32000;
export const INVALID_PARAMS = -32602;

/** Operation ids are 29 characters; a task id or cursor longer than this is refused unread. */
export const MAX_TASK_ID_LENGTH = 128;
/** How much of a caller-supplied value an answer quotes. */
const ECHO_LENGTH = 64;

/** A JSON-RPC error a tasks/* handler answers with: its code, a short message, and any `data`. */
export class TaskRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'TaskRequestError';
  }
}

/** The refusal of `method` to a principal without {@link TASKS_SCOPE}, or null when it holds it. */
export function missingTasksScope(principal: Principal, method: string): TaskRequestError | null {
  if (principal.scopes.has(TASKS_SCOPE)) return null;
  return new TaskRequestError(FORBIDDEN, `Forbidden: ${method} requires scope ${TASKS_SCOPE}.`, {
    requiredScopes: [TASKS_SCOPE],
  });
}

/**
 * The `taskId` of a tasks/* request, or an Invalid params error naming the field. It is a string of at
 * most {@link MAX_TASK_ID_LENGTH} characters, checked before any store lookup.
 */
export function taskIdOf(params: unknown, method: string): string {
  const taskId = stringParam(params, 'taskId', method);
  if (taskId === undefined) {
    throw new TaskRequestError(
      INVALID_PARAMS,
      `Invalid params: ${method} needs params.taskId, the task id a tools/call answered.`,
    );
  }
  return taskId;
}

/** The optional `cursor` of tasks/list, held to the same rules as a task id. */
export function cursorOf(params: unknown): string | undefined {
  return stringParam(params, 'cursor', 'tasks/list');
}

/**
 * The refusal of a tasks/* request whose taskId or cursor is a string too long to be one, or null. For
 * the transport to answer before anything that would quote the value back (the SDK's header checks
 * quote a disagreeing body value whole).
 */
export function oversizedTaskParam(body: unknown): TaskRequestError | null {
  const message = body as { method?: unknown; params?: Record<string, unknown> } | null;
  if (typeof message?.method !== 'string' || !message.method.startsWith('tasks/')) return null;
  const params = message.params;
  if (typeof params !== 'object' || params === null) return null;
  for (const field of ['taskId', 'cursor']) {
    const value = params[field];
    const refusal = typeof value === 'string' ? tooLong(value, field) : null;
    if (refusal) return refusal;
  }
  return null;
}

/** A caller-supplied value as an answer may quote it: its first 64 characters, then an ellipsis. */
export function echoOf(value: string): string {
  return value.length <= ECHO_LENGTH ? value : `${value.slice(0, ECHO_LENGTH)}…`;
}

function stringParam(params: unknown, field: string, method: string): string | undefined {
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    throw new TaskRequestError(INVALID_PARAMS, `Invalid params: ${method} params must be an object.`);
  }
  const value = (params as Record<string, unknown> | undefined)?.[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new TaskRequestError(INVALID_PARAMS, `Invalid params: params.${field} must be a string.`);
  }
  const refusal = tooLong(value, field);
  if (refusal) throw refusal;
  return value;
}

function tooLong(value: string, field: string): TaskRequestError | null {
  if (value.length <= MAX_TASK_ID_LENGTH) return null;
  return new TaskRequestError(
    INVALID_PARAMS,
    `Invalid params: params.${field} is ${value.length} characters, over the ${MAX_TASK_ID_LENGTH} it may have.`,
  );
}
