import { EffectsLedger } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { ChildGateway } from '../../../../test/operations/child-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { executions, reconcileCalls } from '../../../../test/support/test-domain.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import { OperationStore } from '../../src/operations/operation-store.ts';
import { openDatabase } from '../../src/store/open-database.ts';

const postgres = storeTargets.find((t) => t.dialect === 'postgres')!;
const alice: TokenSubject = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
};

const OPERATIONS = 100;
const DELIVERIES = 5;
/** Logical operations in flight at once (each with all its deliveries). */
const WAVE = 10;

describe.skipIf(!postgres.available)('two gateway processes sharing one PostgreSQL database', () => {
  it('executes 100 logical operations delivered 5 times each over both exactly once, and shares reconciliation', async () => {
    const location = await postgres.create();
    const { dataDir, databaseUrl } = location.config;
    const db = await openDatabase(location.config);
    const gateways: ChildGateway[] = [];
    try {
      const tuning = {
        joinWaitMs: 5_000,
        reconcileIntervalMs: 20,
        reconcileBatch: 3,
        reconcileBackoffMs: 1_000,
      };
      gateways.push(
        ...(await Promise.all([
          ChildGateway.start({ dataDir, databaseUrl, tuning, delayMs: 5 }),
          ChildGateway.start({ dataDir, databaseUrl, tuning, delayMs: 5 }),
        ])),
      );
      const answers = new Map<string, OutcomeEnvelope[]>();
      for (let wave = 0; wave < OPERATIONS; wave += WAVE) {
        const calls: Promise<void>[] = [];
        for (let op = wave; op < wave + WAVE; op += 1) {
          const key = `multi-process-op-${String(op).padStart(4, '0')}`;
          answers.set(key, []);
          for (let delivery = 0; delivery < DELIVERIES; delivery += 1) {
            const gateway = gateways[(op + delivery) % 2]!;
            const args = { account: `acc-${op}`, amount: 100 + op, idempotency_key: key };
            calls.push(
              gateway.callTool(alice, 'testing_credit_account', args).then((envelope) => {
                answers.get(key)!.push(envelope);
              }),
            );
          }
        }
        await Promise.all(calls);
      }

      expect(await executions(db, 'execute')).toHaveLength(OPERATIONS);
      expect(await new EffectsLedger(db).list({ system: 'test_bank' })).toHaveLength(OPERATIONS);
      const operationIds = new Set<string>();
      for (const [key, envelopes] of answers) {
        expect(envelopes, key).toHaveLength(DELIVERIES);
        const ids = new Set(envelopes.map((e) => e.operation_id));
        expect(ids.size, key).toBe(1);
        expect(
          envelopes.every((e) => e.status === 'completed'),
          key,
        ).toBe(true);
        expect(
          envelopes.filter((e) => !e.replayed),
          key,
        ).toHaveLength(1);
        operationIds.add(envelopes[0]!.operation_id!);
      }
      expect(operationIds.size).toBe(OPERATIONS);
      const executingPids = new Set((await executions(db, 'execute')).map((e) => e.pid));
      expect(executingPids.size).toBe(2);

      // Unknown outcomes made in both processes fall due together; each is reconciled by exactly one.
      await Promise.all(
        gateways.map((g) =>
          g.tell({
            type: 'arm',
            fault: { target: 'test_bank', fault: 'drop_response_after_apply', times: 10 },
          }),
        ),
      );
      const unknown = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          gateways[i % 2]!.callTool(alice, 'testing_credit_account', {
            account: 'acc-unknown',
            amount: i + 1,
            idempotency_key: `multi-process-unknown-${String(i).padStart(3, '0')}`,
          }),
        ),
      );
      expect(unknown.every((e) => e.status === 'outcome_unknown')).toBe(true);
      const store = new OperationStore(db);
      await expect
        .poll(
          async () => {
            const records = await Promise.all(unknown.map((e) => store.findById(e.operation_id!)));
            return records.filter((r) => r?.status === 'completed').length;
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(20);
      const calls = await reconcileCalls(db);
      const perOperation = new Map<string, number>();
      for (const c of calls) perOperation.set(c.operation_id, (perOperation.get(c.operation_id) ?? 0) + 1);
      expect([...perOperation.values()]).toEqual(Array(20).fill(1));
      const byProcess = new Map<number, number>();
      for (const c of calls) byProcess.set(c.pid, (byProcess.get(c.pid) ?? 0) + 1);
      console.info(`reconcile calls by process: ${JSON.stringify(Object.fromEntries(byProcess))}`);
    } finally {
      await Promise.all(gateways.map((g) => g.stop()));
      await db.close();
      await location.dispose();
    }
  }, 120_000);
});
