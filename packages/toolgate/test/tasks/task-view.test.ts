import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import type { OperationRecord, OperationStatus } from '../../src/operations/operation-record.ts';
import type { OperationStore } from '../../src/operations/operation-store.ts';
import { OperationTasks } from '../../src/tasks/operation-tasks.ts';
import { taskOf } from '../../src/tasks/task-view.ts';

const ID = 'op_01JD3Q5W7X9Y2Z4A6B8C0D1E2F';
const timing = { ttlMs: 86_400_000, pollIntervalMs: 1_000 };
const owner = { tenant: 'acme', subject: 'alice', scopes: new Set<string>() } as unknown as Principal;

function record(status: OperationStatus): OperationRecord {
  const envelope =
    status === 'in_progress' ? null : ({ status, message: `It is ${status}.` } as OutcomeEnvelope);
  return {
    id: ID,
    tenant: 'acme',
    subject: 'alice',
    key: 'key-0000000000000001',
    tool: 'orders_change_unshipped_address',
    contractVersion: '1.0.0',
    fingerprint: 'f',
    contentHash: null,
    mode: 'execute',
    status,
    envelope,
    attempts: 1,
    leaseExpiresAt: null,
    nextCheckAt: null,
    reconcileAttempts: 2,
    reconcileNote: null,
    checkpoints: {},
    externalRefs: {},
    correlationId: 'c',
    createdAt: Date.UTC(2026, 0, 1),
    updatedAt: Date.UTC(2026, 0, 1, 0, 1),
    expiresAt: Date.UTC(2026, 0, 2),
  };
}

describe('the task an operation is', () => {
  it.each([
    ['in_progress', 'working', /^Running/],
    ['outcome_unknown', 'working', /^Outcome unknown: .*2 reconciliation attempt/],
    ['needs_review', 'working', /^Awaiting human review/],
    ['completed', 'completed', /Settled as completed/],
    ['submitted', 'completed', /Settled as submitted/],
    ['rejected', 'completed', /Settled as rejected/],
    ['requires_confirmation', 'completed', /Settled as requires_confirmation/],
    ['failed', 'failed', /^It is failed\.$/],
  ] as const)('%s is %s', (status, taskStatus, message) => {
    const task = taskOf(record(status), timing);
    expect(task).toMatchObject({
      taskId: ID,
      status: taskStatus,
      ttl: 86_400_000,
      pollInterval: 1_000,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:01:00.000Z',
    });
    expect(task.statusMessage).toMatch(message);
  });

  it('tasks/result waits a bounded time for a task still working, then says to poll', async () => {
    const store = { findOwned: async () => record('outcome_unknown') } as unknown as OperationStore;
    const tasks = new OperationTasks({ store, timing, logger: pino({ level: 'silent' }), resultWaitMs: 150 });
    const started = Date.now();
    const answer = await tasks.result(owner, ID).catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(answer).toBeInstanceOf(ProtocolError);
    expect(answer).toMatchObject({ code: -32001, data: { taskId: ID, status: 'working' } });
  });

  it('a cancel of work that is running is refused: it may have reached the owning system', async () => {
    const store = { findOwned: async () => record('in_progress') } as unknown as OperationStore;
    const tasks = new OperationTasks({ store, timing, logger: pino({ level: 'silent' }) });
    await expect(tasks.cancel(owner, ID)).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('a cancel is not an undo'),
    });
  });
});
