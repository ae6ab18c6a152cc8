import { CallToolResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { EffectsLedger } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { ChildGateway } from '../../../../test/operations/child-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { modernRequest } from '../../../../test/tasks/extension-client.ts';
import { createTask } from '../../../../test/tasks/task-client.ts';
import { loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { openDatabase } from '../../src/store/open-database.ts';

const postgres = storeTargets.find((t) => t.dialect === 'postgres')!;
const alice: TokenSubject = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
};
const TUNING = {
  leaseGraceMs: 300,
  reconcileIntervalMs: 25,
  reconcileBackoffMs: 25,
  reconcileBackoffMaxMs: 100,
};

interface TwoGateways {
  /** Pauses each write after it reached the bank, until the test lets it go (or kills the process). */
  readonly first: ChildGateway;
  readonly second: ChildGateway;
  readonly db: Awaited<ReturnType<typeof openDatabase>>;
  readonly dataDir: string;
}

/** Two gateway processes on one fresh PostgreSQL database, stopped and dropped after `run`. */
async function withTwoGateways(run: (gateways: TwoGateways) => Promise<void>): Promise<void> {
  const location = await postgres.create();
  const { dataDir, databaseUrl } = location.config;
  const db = await openDatabase(location.config);
  const gateways: ChildGateway[] = [];
  try {
    const first = await ChildGateway.start({
      dataDir,
      databaseUrl,
      tuning: TUNING,
      timeoutMs: 1_500,
      pauseAfterApply: true,
    });
    gateways.push(first);
    const second = await ChildGateway.start({ dataDir, databaseUrl, tuning: TUNING });
    gateways.push(second);
    await run({ first, second, db, dataDir });
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
    await db.close();
    await location.dispose();
  }
}

describe.skipIf(!postgres.available)('a task across gateway processes on PostgreSQL', () => {
  it('is created through one process, which dies; another polls it to completed and fetches its result', async () => {
    await withTwoGateways(async ({ first, second, db }) => {
      const args = { account: 'acc-task', amount: 700, idempotency_key: 'task-across-gateways-0001' };
      const created = await createTask(await first.client(alice), 'testing_credit_account', args);
      expect(created).toMatchObject({ status: 'working', statusMessage: expect.stringMatching(/^Running/) });
      await first.next('applied');
      await first.kill();

      const client = await second.client(alice);
      const seen: Task[] = [await client.experimental.tasks.getTask(created.taskId)];
      while (seen.at(-1)!.status === 'working') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.push(await client.experimental.tasks.getTask(created.taskId));
        if (seen.length > 400) throw new Error(`task stayed ${seen.at(-1)!.statusMessage}`);
      }
      expect(seen[0]).toMatchObject({ taskId: created.taskId, status: 'working' });
      expect(seen.at(-1)).toMatchObject({ status: 'completed' });
      const result = await client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
      expect(result.structuredContent).toMatchObject({
        status: 'completed',
        operation_id: created.taskId,
        result: { amount: 700, applied: true },
      });
      expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([
        created.taskId,
      ]);
      // A replay through the surviving process answers the same task; the bank saw one credit.
      const replay = await createTask(client, 'testing_credit_account', args);
      expect(replay).toMatchObject({ taskId: created.taskId, status: 'completed' });
      expect(await new EffectsLedger(db).list({ system: 'test_bank' })).toHaveLength(1);
    });
  }, 90_000);

  it('on 2026-07-28: a task created through one process, which dies, is polled to completed through another', async () => {
    await withTwoGateways(async ({ first, second, db, dataDir }) => {
      const keys = await loadOrCreateDevKeys(dataDir);
      const tokenFor = (g: ChildGateway) => mintToken(keys, alice, { audience: g.resource });
      const args = { account: 'acc-task', amount: 700, idempotency_key: 'task-across-gateways-2026' };
      const call = { name: 'testing_credit_account', arguments: args };
      const created = await modernRequest(first.url, await tokenFor(first), 'tools/call', call);
      expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.body.result!.taskId as string;
      await first.next('applied');
      await first.kill();

      const token = await tokenFor(second);
      let task = (await modernRequest(second.url, token, 'tasks/get', { taskId })).body.result!;
      for (let i = 0; task.status === 'working'; i++) {
        if (i > 400) throw new Error(`task stayed ${String(task.statusMessage)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        task = (await modernRequest(second.url, token, 'tasks/get', { taskId })).body.result!;
      }
      expect(task).toMatchObject({ status: 'completed', taskId });
      expect((task.result as { structuredContent: unknown }).structuredContent).toMatchObject({
        status: 'completed',
        operation_id: taskId,
        result: { amount: 700, applied: true },
      });
      // A replay through the surviving process answers the settled outcome at once; one credit.
      const replay = await modernRequest(second.url, token, 'tools/call', call);
      expect(replay.body.result).toMatchObject({
        resultType: 'complete',
        structuredContent: { operation_id: taskId, replayed: true, status: 'completed' },
      });
      expect(await new EffectsLedger(db).list({ system: 'test_bank' })).toHaveLength(1);
    });
  }, 90_000);
});
