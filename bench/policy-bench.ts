import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_POLICY_DIR } from '@toolgate/domains';
import { simulationOf } from '@toolgate/simulation';
import { pino } from 'pino';
import { createApp } from 'toolgate/server';
import { changesDomain } from '../packages/domains/dist/changes/changes-module.js';
import { formatAtOffset } from '../packages/domains/dist/changes/rfc3339.js';
import type { BenchReport } from './bench-section.ts';

export interface PolicyBenchOptions {
  /** Measured calls per case (after a tenth as many to warm up). */
  readonly calls?: number;
}

const ENGINEER = {
  subject: 'eng.rivera',
  tenant: 'acme',
  actor: 'support_agent' as const,
  scopes: new Set(['changes:read', 'cmdb:read', 'changes:create', 'changes:create:production']),
  groups: ['team-discovery', 'team-payments', 'team-storefront'],
};

const START = formatAtOffset(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000, 0);

const write = (i: number, run: string) => ({
  service_id: 'checkout-web',
  environment: 'staging',
  summary: `Raise the client timeout of checkout to eight seconds (${i})`,
  implementation_plan: 'Change the timeout in the config repository, deploy with the standard pipeline.',
  rollback_plan: 'Revert the config commit and redeploy the previous release with the standard pipeline.',
  start_time: START,
  duration_minutes: 60,
  risk: 'low',
  dry_run: false,
  idempotency_key: `bench-policy-${run}-${i < 0 ? 'warm' : 'call'}${Math.abs(i)}`,
});

/** Server CPU (µs, user + system) of `calls` sequential calls in process. */
async function cpuOf(
  from: number,
  calls: number,
  call: (i: number) => Promise<{ status: string }>,
): Promise<number> {
  const before = process.cpuUsage();
  for (let i = from; i < from + calls; i += 1) {
    const answer = await call(i);
    if (answer.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(answer)}`);
  }
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

type Case = 'read' | 'durable write';
const ROUNDS = 5;

/**
 * The demo's policies on a read (`cmdb_service_resolve`, a decision cached per principal and resource)
 * and a durable write (`change_create` in staging, whose policies read the input: decided every call),
 * in process on SQLite: CPU per call with and without the policy set, and what the policies add. The
 * two gateways run side by side and take turns in rounds, so that load on the machine falls on both.
 */
export async function policyBench(options: PolicyBenchOptions = {}): Promise<BenchReport> {
  const calls = options.calls ?? 2_000;
  const apps: { run: 'off' | 'on'; app: Awaited<ReturnType<typeof createApp>>; dataDir: string }[] = [];
  try {
    for (const policyDir of [undefined, DEMO_POLICY_DIR]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-policy-'));
      const app = await createApp({
        dataDir,
        logger: pino({ level: 'silent' }),
        backgroundJobs: false,
        modules: [changesDomain],
        ...(policyDir ? { policyDir } : {}),
      });
      await simulationOf(app).seed();
      apps.push({ run: policyDir ? 'on' : 'off', app, dataDir });
    }
    const cases: Record<Case, (app: (typeof apps)[number], i: number) => Promise<{ status: string }>> = {
      read: ({ app }, i) =>
        app.gateway
          .call(
            { name: 'cmdb_service_resolve', arguments: { query: i % 2 ? 'payments' : 'checkout site' } },
            ENGINEER,
          )
          .then((answer) => answer.envelope),
      'durable write': ({ app, run }, i) =>
        app.gateway
          .call({ name: 'change_create', arguments: write(i, run) }, ENGINEER)
          .then((answer) => answer.envelope),
    };
    const rows: { name: string; values: number[] }[] = [];
    for (const [name, call] of Object.entries(cases) as [Case, (typeof cases)[Case]][]) {
      const perRound = Math.ceil((name === 'read' ? calls : calls / 4) / ROUNDS);
      const used = { off: 0, on: 0 };
      for (const entry of apps) await cpuOf(-perRound, perRound, (i) => call(entry, i));
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const entry of apps)
          used[entry.run] += await cpuOf(round * perRound, perRound, (i) => call(entry, i));
      }
      const off = used.off / (perRound * ROUNDS);
      const on = used.on / (perRound * ROUNDS);
      rows.push({ name, values: [off, on, on - off, ((on - off) / off) * 100] });
    }
    return {
      table: {
        columns: [
          { title: 'µs/call off', digits: 0 },
          { title: 'µs/call on', digits: 0 },
          { title: 'policy µs', digits: 0 },
          { title: 'policy %', digits: 1 },
        ],
        rows,
      },
      measures: rows.map((r) => ({
        name: `${r.name}: CPU the demo policies add`,
        value: r.values[3] ?? 0,
        unit: '%',
      })),
    };
  } finally {
    for (const { app, dataDir } of apps) {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
