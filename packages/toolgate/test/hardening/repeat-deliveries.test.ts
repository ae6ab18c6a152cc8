import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { postToolCall } from '../../../../test/support/post-tool-call.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { executions, TEST_SYSTEM, testDomain } from '../../../../test/support/test-domain.ts';
import { modernRequest } from '../../../../test/tasks/extension-client.ts';
import { createTask, v1Client } from '../../../../test/tasks/task-client.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import { DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL } from '../../src/gateway/limit-defaults.ts';

const ALICE: TokenSubject = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
};

/** Long enough that every concurrent delivery arrives, and the joiners' bounded wait ends, while it runs. */
const EXECUTION_MS = 1_800;

let keySeq = 0;
const newKey = (label: string) => {
  keySeq += 1;
  return `repeat-${label}-${Date.now().toString(36)}-${keySeq}`;
};

/**
 * The in-flight cap counts distinct operations executing: repeat deliveries of a key that is already
 * reserved join its operation (replay, wait, `in_progress` or its task) and take no write slot.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`repeat deliveries of one key (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, {
      modules: [testDomain({ delayMs: EXECUTION_MS })],
      app: { limits: {} },
    });
    const credit = async (key: string, amount = 100): Promise<OutcomeEnvelope> => {
      const response = await postToolCall(
        suite.gw.url,
        await suite.gw.tokenFor(ALICE),
        'testing_credit_account',
        {
          account: 'acc-repeat',
          amount,
          idempotency_key: key,
        },
      );
      const body = (await response.json()) as { result: { structuredContent: OutcomeEnvelope } };
      return body.result.structuredContent;
    };
    const world = async () => {
      const { db } = suite.gw.app;
      return {
        executed: await executions(db, 'execute'),
        ledger: await db.query<{ ref: string }>('SELECT request_id AS ref FROM effects WHERE system = ?', [
          TEST_SYSTEM,
        ]),
        operations: await db.query<{ id: string; key: string; status: string }>(
          'SELECT id, idem_key AS key, status FROM operations ORDER BY idem_key',
        ),
      };
    };
    const answerKind = (envelope: OutcomeEnvelope): string =>
      envelope.code === 'RATE_LIMITED'
        ? 'rate_limited'
        : `${envelope.status}${envelope.replayed ? ' (replayed)' : ''}`;
    const countBy = (envelopes: OutcomeEnvelope[]) => {
      const counts: Record<string, number> = {};
      for (const envelope of envelopes)
        counts[answerKind(envelope)] = (counts[answerKind(envelope)] ?? 0) + 1;
      return counts;
    };

    it('40 concurrent deliveries of one key: one execution, every answer joins it, none refused', async () => {
      const key = newKey('burst');
      const burst = Array.from({ length: 40 }, () => credit(key));
      // While the duplicates wait on the running execution, another write of the same caller starts.
      await sleep(150);
      const other = await credit(newKey('other'), 7);
      const answers = await Promise.all(burst);
      console.info(`40 deliveries of one key on ${target.dialect}:`, countBy(answers));
      expect(answers.filter((a) => a.code === 'RATE_LIMITED')).toEqual([]);
      const after = await world();
      const burstRecord = after.operations.find((o) => o.key === key);
      expect(burstRecord?.status).toBe('completed');
      for (const answer of answers) {
        expect(answer.operation_id).toBe(burstRecord!.id);
        expect(answer.status === 'in_progress' || answer.status === 'completed').toBe(true);
      }
      expect(answers.filter((a) => a.status === 'completed' && !a.replayed)).toHaveLength(1);
      expect(other).toMatchObject({ status: 'completed', replayed: false });
      // Exactly one execution and one effect of the repeated key, and one of the other write.
      expect(after.executed.map((e) => e.operation_id).sort()).toEqual(
        after.operations.map((o) => o.id).sort(),
      );
      expect(after.executed.filter((e) => e.operation_id === burstRecord!.id)).toHaveLength(1);
      expect(after.ledger.map((e) => e.ref).sort()).toEqual(after.operations.map((o) => o.id).sort());
      expect(after.operations).toHaveLength(2);
    });

    it('the cap still refuses distinct operations beyond it, reserving nothing for them', async () => {
      const cap = DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL;
      const keys = Array.from({ length: cap + 2 }, (_, i) => newKey(`distinct-${i}`));
      const answers = await Promise.all(keys.map((key) => credit(key)));
      const limited = answers.filter((a) => a.code === 'RATE_LIMITED');
      expect(limited).toHaveLength(2);
      for (const refusal of limited) {
        expect(refusal).toMatchObject({ status: 'failed', operation_id: null, retryable: true });
      }
      expect(answers.filter((a) => a.status === 'completed' && !a.replayed)).toHaveLength(cap);
      const after = await world();
      expect(after.operations.map((o) => o.id).sort()).toEqual(
        answers
          .filter((a) => a.status === 'completed')
          .map((a) => a.operation_id)
          .sort(),
      );
      expect(after.executed).toHaveLength(cap);
      expect(after.ledger).toHaveLength(cap);
    });

    it('20 concurrent task-augmented deliveries of one key: one task, the same id for all', async () => {
      const token = await suite.gw.tokenFor(ALICE);
      const key = newKey('task');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          modernRequest(
            suite.gw.url,
            token,
            'tools/call',
            {
              name: 'testing_credit_account',
              arguments: { account: 'acc-repeat', amount: 100, idempotency_key: key },
            },
            { id: i + 1 },
          ),
        ),
      );
      const results = answers.map((a) => a.body.result);
      const asTasks = results.filter((r) => r?.resultType === 'task').length;
      console.info(`20 task deliveries on ${target.dialect}: ${asTasks} answered as a task`);
      for (const result of results) expect(result).toMatchObject({ resultType: 'task' });
      const taskIds = new Set(results.map((r) => r?.taskId));
      expect(taskIds.size).toBe(1);
      await sleep(EXECUTION_MS);
      const after = await world();
      expect(after.operations.map((o) => o.id)).toEqual([...taskIds]);
      expect(after.executed).toHaveLength(1);
      expect(after.ledger).toHaveLength(1);
    });

    it('the same on 2025-11-25: 20 concurrent tasks of one key are one task', async () => {
      const client = await v1Client(suite.gw, ALICE);
      const key = newKey('task-2025');
      const tasks = await Promise.all(
        Array.from({ length: 20 }, () =>
          createTask(client, 'testing_credit_account', {
            account: 'acc-repeat',
            amount: 100,
            idempotency_key: key,
          }),
        ),
      );
      const taskIds = new Set(tasks.map((t) => t.taskId));
      expect(taskIds.size).toBe(1);
      await sleep(EXECUTION_MS);
      const after = await world();
      expect(after.operations.map((o) => o.id)).toEqual([...taskIds]);
      expect(after.executed).toHaveLength(1);
      expect(after.ledger).toHaveLength(1);
    });
  });
}
