import { ProtocolError, ProtocolErrorCode, type Task } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { OPERATION_ID_PATTERN } from '../operations/operation-id.ts';
import type { OperationRecord } from '../operations/operation-record.ts';
import type { OperationStore } from '../operations/operation-store.ts';
import { DEFAULT_TASKS_PAGE_SIZE, echoOf, MAX_TASK_ID_LENGTH } from './task-request-checks.ts';
import { isSettledTask, type TaskTiming, taskOf } from './task-view.ts';

export interface OperationTasksOptions {
  readonly store: OperationStore;
  readonly timing: TaskTiming;
  /** Where a task's execution reports failures no request is left to hear. */
  readonly logger: Logger;
  /** How long tasks/result waits for a task still working before telling the requestor to poll. */
  readonly resultWaitMs?: number;
  /** Tasks per tasks/list page. */
  readonly pageSize?: number;
}

/** JSON-RPC's request timeout: tasks/result of a task still working, after the bounded wait. */
const REQUEST_TIMEOUT = -32001;

/** A stateless server holds no stream open: tasks/result waits this long, then the requestor polls. */
export const DEFAULT_RESULT_WAIT_MS = 10_000;
const RESULT_POLL_MS = 100;

/**
 * MCP tasks backed by durable operations: the task id is the operation id, so any gateway process on
 * the same database answers for it. A principal sees only its own operations (tenant and subject);
 * another principal's task id answers exactly like an unknown one.
 */
export class OperationTasks {
  readonly #store: OperationStore;
  readonly #resultWaitMs: number;
  readonly #pageSize: number;
  readonly timing: TaskTiming;
  readonly logger: Logger;

  constructor(options: OperationTasksOptions) {
    this.#store = options.store;
    this.timing = options.timing;
    this.logger = options.logger;
    this.#resultWaitMs = options.resultWaitMs ?? DEFAULT_RESULT_WAIT_MS;
    this.#pageSize = options.pageSize ?? DEFAULT_TASKS_PAGE_SIZE;
  }

  /** tasks/get: the task's state now. */
  async get(principal: Principal, taskId: string): Promise<Task> {
    return taskOf(await this.#own(principal, taskId), this.timing);
  }

  /**
   * tasks/result: the stored envelope once the task is settled (the transport answers it as the
   * CallToolResult its tools/call would have given); a task still working is waited for a bounded
   * time, then refused so that the requestor polls tasks/get.
   */
  async result(principal: Principal, taskId: string, signal?: AbortSignal): Promise<OutcomeEnvelope> {
    const deadline = Date.now() + this.#resultWaitMs;
    let record = await this.#own(principal, taskId);
    while (!isSettledTask(taskOf(record, this.timing)) && Date.now() < deadline && !signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, RESULT_POLL_MS));
      record = await this.#own(principal, taskId);
    }
    const task = taskOf(record, this.timing);
    if (!isSettledTask(task) || !record.envelope) {
      throw new ProtocolError(
        REQUEST_TIMEOUT,
        `Task ${taskId} is still working (${task.statusMessage}); poll tasks/get and fetch the result once it is completed.`,
        { taskId, status: task.status },
      );
    }
    return record.envelope;
  }

  /** tasks/list: the caller's own operations, oldest first, one page per call. */
  async list(
    principal: Principal,
    cursor: string | undefined,
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (cursor !== undefined && !OPERATION_ID_PATTERN.test(cursor)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Invalid cursor: use the nextCursor of an earlier tasks/list.',
      );
    }
    const records = await this.#store.listOwn(
      principal.tenant,
      principal.subject,
      cursor ?? '',
      this.#pageSize + 1,
    );
    const page = records.slice(0, this.#pageSize);
    const tasks = page.map((record) => taskOf(record, this.timing));
    const last = page.at(-1);
    return records.length > this.#pageSize && last ? { tasks, nextCursor: last.id } : { tasks };
  }

  /**
   * tasks/cancel: refused. A task exists only once its operation has started executing, so its work may
   * already have reached the owning system, and a cancel is not an undo; a settled task cannot change.
   */
  async cancel(principal: Principal, taskId: string): Promise<never> {
    const task = taskOf(await this.#own(principal, taskId), this.timing);
    const why = isSettledTask(task)
      ? `task ${taskId} is already ${task.status}`
      : `task ${taskId} has started executing and may already have reached the owning system; a cancel is not an undo (${task.statusMessage})`;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel: ${why}.`, {
      taskId,
      status: task.status,
    });
  }

  /**
   * The caller's own operation by task id, or null: another principal's task, a malformed id and an
   * unknown one are the same "not found", whatever the protocol revision asking.
   */
  async find(principal: Principal, taskId: string): Promise<OperationRecord | null> {
    const wellFormed = taskId.length <= MAX_TASK_ID_LENGTH && OPERATION_ID_PATTERN.test(taskId);
    return wellFormed ? this.#store.findOwned(taskId, principal.tenant, principal.subject) : null;
  }

  async #own(principal: Principal, taskId: string): Promise<OperationRecord> {
    const record = await this.find(principal, taskId);
    if (!record)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${echoOf(taskId)}.`);
    return record;
  }
}
