import type { Task } from '@modelcontextprotocol/server';
import type { OperationRecord } from '../operations/operation-record.ts';

/** How tasks are published: their lifetime and the pace a requestor should poll at. */
export interface TaskTiming {
  /** The retention of operation records, published as every task's `ttl`. */
  readonly ttlMs: number;
  /** The reconciler's pace: polling faster learns nothing new. */
  readonly pollIntervalMs: number;
}

/**
 * The MCP task an operation is, stated honestly: work that may still change is `working` (with a
 * message saying whether it runs, is being reconciled or waits for a person); every settled outcome is
 * `completed` with its envelope as the result; `failed` (nothing changed) is `failed`.
 */
export function taskOf(record: OperationRecord, timing: TaskTiming): Task {
  const { status, message } = taskStatusOf(record);
  return {
    taskId: record.id,
    status,
    ttl: timing.ttlMs,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    pollInterval: timing.pollIntervalMs,
    statusMessage: message,
  };
}

/** True once tasks/result has the final answer to give. */
export function isSettledTask(task: Pick<Task, 'status'>): boolean {
  return task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
}

/** What an operation's state means to a requestor polling it: still able to change, or settled. */
export function taskStatusOf(record: OperationRecord): { status: Task['status']; message: string } {
  switch (record.status) {
    case 'in_progress':
      return { status: 'working', message: `Running: ${record.tool} is executing.` };
    case 'outcome_unknown':
      return {
        status: 'working',
        message:
          `Outcome unknown: the owning system is being asked what happened (${record.reconcileAttempts} ` +
          'reconciliation attempt(s) so far); the change may have happened, do not start a new operation.',
      };
    case 'needs_review':
      return {
        status: 'working',
        message:
          'Awaiting human review: the outcome could not be settled automatically and an operator decides it ' +
          `(review queue, operation ${record.id}).`,
      };
    case 'awaiting_confirmation':
      return {
        status: 'working',
        message:
          'Awaiting confirmation: nothing ran yet; an approver confirms or refuses it in the operator console ' +
          `(operation ${record.id}, until ${new Date(record.expiresAt).toISOString()}).`,
      };
    case 'failed':
      return {
        status: 'failed',
        message: record.envelope?.message ?? 'The operation failed; nothing changed.',
      };
    case 'completed':
    case 'submitted':
    case 'rejected':
    case 'requires_confirmation':
      return {
        status: 'completed',
        message: `Settled as ${record.status}: tasks/result returns the outcome envelope.`,
      };
  }
}
