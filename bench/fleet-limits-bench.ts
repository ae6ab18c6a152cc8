import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { defineTool, outcome, type ToolgateModule } from 'toolgate';
import { createApp } from 'toolgate/server';
import { z } from 'zod';
import { createScratchDatabase, postgresAvailable } from '../test/support/pg.ts';
import type { BenchReport } from './bench-section.ts';

export interface FleetLimitsBenchOptions {
  /** Measured calls per case and limiter (after a tenth as many to warm up). */
  readonly calls?: number;
}

const READ_TOOL = 'bench_fleet_read';
const SCOPE = 'bench:read';

const read = defineTool({
  name: READ_TOOL,
  title: 'Read nothing',
  description: 'Answers at once without reading anything; the benchmark read of the fleet limiter.',
  kind: 'read',
  version: '1.0.0',
  input: z.strictObject({}),
  output: z.strictObject({ ok: z.boolean() }),
  errors: [],
  scopes: [SCOPE],
  timeoutMs: 5_000,
  examples: [],
  handler: async () => outcome.completed({ ok: true }),
});
const readModule: ToolgateModule = { name: 'bench-fleet', create: () => ({ tools: [read] }) };

const principal = (i: number) => ({
  subject: `bench-${i}`,
  tenant: 'bench',
  actor: 'service' as const,
  scopes: new Set([SCOPE]),
});

interface Case {
  readonly name: string;
  /** The per-principal rate: each lease is a twentieth of it. */
  readonly rate: number;
  /** Principals the calls go round; each stays under its rate. */
  readonly principals: number;
}

const CASES: readonly Case[] = [
  { name: 'one principal, 100000/s (leases of 5000)', rate: 100_000, principals: 1 },
  { name: '2000 principals, 100/s each (leases of 5)', rate: 100, principals: 2_000 },
];
const ROUNDS = 5;

type App = Awaited<ReturnType<typeof createApp>>;

/** Process CPU (µs, user + system) and wall time (µs) of `calls` sequential reads, each one served. */
async function costOf(app: App, from: number, calls: number, principals: number) {
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = from; i < from + calls; i += 1) {
    const answer = (await app.gateway.call({ name: READ_TOOL, arguments: {} }, principal(i % principals)))
      .envelope;
    if (answer.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(answer)}`);
    // A server reads its next request from a socket: the event loop turns between calls, and the
    // answers of the leases in flight are read then.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  return { cpu: used.user + used.system, wall: (performance.now() - started) * 1000 };
}

/**
 * A read's cost with the fleet limiter on (the rate's tokens leased from PostgreSQL) against the
 * per-process limiter, in process on one PostgreSQL database: CPU and wall time per call of this
 * process (the database's own CPU for the leases is not in it). The two gateways take turns in
 * rounds, so that load on the machine falls on both.
 */
export async function fleetLimitsBench(options: FleetLimitsBenchOptions = {}): Promise<BenchReport> {
  if (!(await postgresAvailable()))
    throw new Error('PostgreSQL is not reachable (TOOLGATE_TEST_DATABASE_URL)');
  const calls = options.calls ?? 10_000;
  const scratch = await createScratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-fleet-'));
  const rows: { name: string; values: number[] }[] = [];
  try {
    for (const { name, rate, principals } of CASES) {
      const apps: Record<'off' | 'on', App> = {} as Record<'off' | 'on', App>;
      for (const run of ['off', 'on'] as const) {
        apps[run] = await createApp({
          dataDir,
          databaseUrl: scratch.url,
          logger: pino({ level: 'silent' }),
          backgroundJobs: false,
          modules: [readModule],
          limits: { perPrincipal: rate, fleet: run === 'on' },
        });
      }
      try {
        const perRound = Math.ceil(calls / ROUNDS);
        const used = { off: { cpu: 0, wall: 0 }, on: { cpu: 0, wall: 0 } };
        for (const run of ['off', 'on'] as const) await costOf(apps[run], 0, perRound, principals);
        for (let round = 0; round < ROUNDS; round += 1) {
          // Each goes first in every other round.
          for (const run of round % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
            const cost = await costOf(apps[run], (round + 1) * perRound, perRound, principals);
            used[run].cpu += cost.cpu;
            used[run].wall += cost.wall;
          }
        }
        const n = perRound * ROUNDS;
        // The fleet's gateway leased from the store all along: it never fell back to its own buckets.
        const failures = (await apps.on.metrics.fleetLimitFailures.get()).values[0]?.value ?? 0;
        const [leased] = await apps.on.db.query<{ n: number }>(
          'SELECT COUNT(*) AS n FROM fleet_limit_buckets',
        );
        if (failures > 0 || Number(leased?.n) < principals)
          throw new Error(
            `the fleet limiter did not lease throughout (${failures} store failures, ${leased?.n} buckets)`,
          );
        rows.push({
          name,
          values: [
            used.off.cpu / n,
            used.on.cpu / n,
            used.on.cpu / used.off.cpu,
            used.off.wall / n,
            used.on.wall / n,
            used.on.wall / used.off.wall,
          ],
        });
      } finally {
        await apps.off?.close();
        await apps.on?.close();
      }
    }
  } finally {
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    table: {
      columns: [
        { title: 'µs CPU off', digits: 1 },
        { title: 'µs CPU on', digits: 1 },
        { title: 'CPU on/off', digits: 2 },
        { title: 'µs wall off', digits: 1 },
        { title: 'µs wall on', digits: 1 },
        { title: 'wall on/off', digits: 2 },
      ],
      rows,
    },
    measures: rows.map((r) => ({
      name: `${r.name}: read CPU, fleet on / off`,
      value: r.values[2] ?? 0,
      unit: 'x',
    })),
  };
}
