import type { Principal } from '../auth/principal.ts';

/**
 * The scope every tasks/* method needs: operations_get's. A task is an operation, and tasks/get,
 * tasks/result and tasks/list read its stored outcome, so they are the same read under another name.
 */
export const TASKS_SCOPE = 'operations:read';

/**
 * An authorization refusal of a tasks/* method. Neither task specification defines one (their codes are
 * -32602 for an unknown task, -32603 and -32021), so it takes the implementation-defined server error the
 * HTTP layer already answers "Forbidden: ..." with, and names the scope in `data`.
 */
export const FORBIDDEN = -32000;

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
