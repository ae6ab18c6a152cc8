/**
 * Soak (`npm run soak`, not in CI): N gateway processes on one PostgreSQL database take mixed
 * writes, replays and reads while faults are armed; one gateway is killed mid-run and restarted.
 * At the end every key has at most one effect and no operation is left unsettled. Prints
 * throughput and latency percentiles; exits 1 on a violation.
 *
 *   npm run soak -- --gateways 3 --seconds 60 --concurrency 24
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EffectsLedger } from '../packages/simulation/src/effects-ledger.ts';
import type { TokenSubject } from '../packages/toolgate/src/auth/token-claims.ts';
import { SETTLED_FOR_GOOD_SQL } from '../packages/toolgate/src/operations/operation-record.ts';
import { openDatabase } from '../packages/toolgate/src/store/open-database.ts';
import { ChildGateway } from '../test/operations/child-gateway.ts';
import { createScratchDatabase } from '../test/support/pg.ts';

const { values } = parseArgs({
  options: {
    gateways: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '16' },
    principals: { type: 'string', default: '8' },
  },
});
const GATEWAYS = Number(values.gateways);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const principals: TokenSubject[] = Array.from({ length: Number(values.principals) }, (_, i) => ({
  sub: `soak-${i}`,
  tenant: `tenant-${i % 2}`,
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
}));
const TUNING = { joinWaitMs: 2_000, leaseGraceMs: 500, reconcileIntervalMs: 50, reconcileBackoffMs: 100 };
const FAULTS = ['drop_response_after_apply', 'timeout', 'unavailable', 'delay_ms'] as const;

interface SentWrite {
  readonly who: TokenSubject;
  readonly args: Record<string, unknown>;
  operationId: string | null;
}

const scratch = await createScratchDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-soak-'));
const config = { dataDir, databaseUrl: scratch.url };
const start = (i: number) =>
  ChildGateway.start({ ...config, tuning: TUNING, delayMs: 2 + (i % 3), timeoutMs: 2_000 });
const gateways: (ChildGateway | null)[] = await Promise.all(
  Array.from({ length: GATEWAYS }, (_, i) => start(i)),
);
const latencies: number[] = [];
const statuses = new Map<string, number>();
const sent: SentWrite[] = [];
let transportErrors = 0;
let keySeq = 0;
const count = (label: string) => statuses.set(label, (statuses.get(label) ?? 0) + 1);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

async function oneCall(): Promise<void> {
  const live = gateways.filter((g): g is ChildGateway => g !== null);
  const gateway = pick(live);
  const roll = Math.random();
  let who = pick(principals);
  let name = 'testing_credit_account';
  let args: Record<string, unknown>;
  let write: SentWrite | null = null;
  if (roll < 0.5 || sent.length === 0) {
    keySeq += 1;
    args = {
      account: `acc-${keySeq % 50}`,
      amount: 1 + (keySeq % 900),
      idempotency_key: `soak-key-${String(keySeq).padStart(8, '0')}`,
    };
    write = { who, args, operationId: null };
    sent.push(write);
  } else if (roll < 0.8) {
    write = pick(sent);
    who = write.who;
    args = write.args;
  } else {
    const known = sent.filter((s) => s.operationId !== null);
    if (known.length === 0) return;
    const target = pick(known);
    who = target.who;
    name = 'operations_get';
    args = { operation_id: target.operationId };
  }
  const started = performance.now();
  try {
    const envelope = await gateway.callTool(who, name, args);
    latencies.push(performance.now() - started);
    count(
      `${name === 'operations_get' ? 'read' : 'write'} ${envelope.status}${envelope.code ? ` ${envelope.code}` : ''}`,
    );
    if (write && envelope.operation_id) write.operationId = envelope.operation_id;
  } catch {
    transportErrors += 1;
  }
}

async function armFaults(): Promise<void> {
  for (const gateway of gateways) {
    if (!gateway) continue;
    const fault = pick(FAULTS);
    await gateway
      .tell({
        type: 'arm',
        fault: {
          target: 'test_bank',
          fault,
          times: 2,
          ...(fault === 'delay_ms' ? { params: { ms: 300 } } : {}),
        },
      })
      .catch(() => undefined);
  }
}

const began = performance.now();
const deadline = began + SECONDS * 1000;
let killed = false;
const chaos = (async () => {
  while (performance.now() < deadline) {
    await armFaults();
    if (!killed && performance.now() > began + (SECONDS * 1000) / 2) {
      killed = true;
      const victim = gateways[0]!;
      gateways[0] = null;
      await victim.kill();
      console.info(`killed gateway 0 at ${((performance.now() - began) / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      gateways[0] = await start(0);
      console.info(`restarted gateway 0 at ${((performance.now() - began) / 1000).toFixed(1)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
})();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) await oneCall();
  }),
);
await chaos;
const elapsedS = (performance.now() - began) / 1000;

// Settle: the reconcilers finish what faults and the kill left open.
const db = await openDatabase(config);
let unsettled: { id: string; status: string }[] = [];
for (let waited = 0; waited < 60_000; waited += 500) {
  unsettled = await db.query<{ id: string; status: string }>(
    `SELECT id, status FROM operations WHERE NOT (${SETTLED_FOR_GOOD_SQL})`,
  );
  if (unsettled.length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const effects = await new EffectsLedger(db).list({ system: 'test_bank' });
const perOperation = new Map<string, number>();
for (const effect of effects) {
  const id = effect.requestId ?? 'none';
  perOperation.set(id, (perOperation.get(id) ?? 0) + 1);
}
const duplicated = [...perOperation].filter(([, n]) => n > 1);
const keys = await db.query<{ n: number }>(
  'SELECT COUNT(*) AS n FROM (SELECT tenant, subject, idem_key FROM operations GROUP BY tenant, subject, idem_key HAVING COUNT(*) > 1) AS d',
);
const duplicateKeys = Number(keys[0]?.n ?? 0);

latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(1);
console.info(
  `\n${GATEWAYS} gateways, ${CONCURRENCY} concurrent callers, ${elapsedS.toFixed(1)} s: ` +
    `${latencies.length} answered calls (${(latencies.length / elapsedS).toFixed(0)}/s), ` +
    `${transportErrors} transport errors (the killed gateway's calls)\n` +
    `latency ms: p50 ${pct(0.5)}  p99 ${pct(0.99)}  max ${latencies.at(-1)?.toFixed(1)}\n` +
    `keys sent ${sent.length}, effects ${effects.length}\n`,
);
for (const [label, n] of [...statuses].sort()) console.info(`  ${String(n).padStart(7)}  ${label}`);
const problems = [
  ...(duplicated.length > 0 ? [`${duplicated.length} operations with more than one effect`] : []),
  ...(duplicateKeys > 0 ? [`${duplicateKeys} keys with more than one operation record`] : []),
  ...(unsettled.length > 0
    ? [`${unsettled.length} operations unsettled after 60 s: ${JSON.stringify(unsettled.slice(0, 5))}`]
    : []),
];
await db.close();
await Promise.all(gateways.map((g) => g?.stop()));
await scratch.drop();
rmSync(dataDir, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`\nSOAK FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.info('\nsoak passed: one effect per key, every operation settled');
