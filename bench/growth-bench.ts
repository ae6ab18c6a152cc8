import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { type App, createApp } from 'toolgate/server';
import {
  parseActivityWindow,
  readActivityHistory,
} from '../packages/toolgate/dist/operator/activity-history.js';
import { listOperations } from '../packages/toolgate/dist/operator/operation-listing.js';
import { FirstStatistics } from '../packages/toolgate/dist/store/postgres/first-statistics.js';
import type { SqlDialect } from '../packages/toolgate/dist/store/sql-database.js';
import { createScratchDatabase, postgresAvailable } from '../test/support/pg.ts';
import { seedStore } from '../test/support/seed-store.ts';
import { BENCH_SCOPE, BENCH_WRITE_TOOL, benchDomain } from './bench-domain.ts';
import type { BenchMeasure, BenchReport } from './bench-section.ts';

const DAY = 86_400_000;
const TENANTS = ['bench', 'tenant-b', 'tenant-c', 'tenant-d'];
const principal = {
  subject: 'bench',
  tenant: 'bench',
  actor: 'service' as const,
  scopes: new Set([BENCH_SCOPE]),
};

export interface GrowthBenchOptions {
  /** Stored operations (each with its audit entry) measured at, in increasing order. */
  readonly sizes?: readonly number[];
  /** Calls of each kind measured at each size. */
  readonly calls?: number;
  /** Expired rows the background purge deletes while writes are measured. */
  readonly expired?: number;
  /** The stores to grow (PostgreSQL only when it answers). */
  readonly stores?: readonly SqlDialect[];
}

/**
 * Writes timed before the purge, its baseline: a p99 of a thousand calls is their tenth slowest, which
 * moves by 2x between runs on a quiet machine; the purge's own loop times tens of thousands.
 */
const PURGE_BASELINE_WRITES = 20_000;

interface Timing {
  readonly perSecond: number;
  readonly p99: number;
}

/** Runs `work` `n` times one after another: completions per second and the 99th percentile in ms. */
async function timed(n: number, work: (i: number) => Promise<unknown>): Promise<Timing> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await work(i);
    times.push(performance.now() - t);
  }
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    perSecond: n / (elapsed / 1000),
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!,
  };
}

let keys = 0;
const write = (app: App) =>
  app.gateway
    .call(
      {
        name: BENCH_WRITE_TOOL,
        arguments: { text: 'note', idempotency_key: `growth-${Date.now()}-${keys++}` },
      },
      principal,
    )
    .then((answer) => answer.envelope);

interface SizeRow {
  readonly size: number;
  readonly seedSeconds: number;
  readonly write: Timing;
  readonly read: Timing;
  readonly replay: Timing;
  readonly reconcileMs: number;
  readonly listP99: number;
  readonly auditP99: number;
  readonly activityP99: number;
  readonly bytesPerOperation: number;
}

/**
 * What a store that grew over weeks has done by now and a bulk seed has not: its WAL checkpointed
 * (SQLite), its tables vacuumed and analysed and its dirty pages written (PostgreSQL, as autovacuum and
 * the checkpointer would). Without it the first figures after a seed measure the seed's aftermath, the
 * background writes of a million new rows, rather than the store at that size.
 */
async function settleAfterSeed(app: App, dataDir: string): Promise<void> {
  if (app.db.dialect === 'sqlite') {
    // A checkpoint runs outside a transaction, so on a connection of its own (the gateway's writes go in
    // groups, each in one).
    const own = new Database(join(dataDir, 'toolgate.db'));
    try {
      own.pragma('busy_timeout = 5000');
      own.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      own.close();
    }
    return;
  }
  for (const table of ['operations', 'audit_log']) await app.db.execute(`VACUUM ANALYZE ${table}`);
  await app.db.execute('CHECKPOINT');
}

/**
 * Calls of each kind run before its timed ones: many before the first size, so the empty store is not
 * measured on code still being compiled (a few hundred left its write p99 five times the next size's),
 * and a few before each next one, after the seed's own statements.
 */
const WARM_UP_CALLS = { first: 5_000, next: 300 } as const;

async function measureSize(
  app: App,
  size: number,
  seedSeconds: number,
  calls: number,
  dataDir: string,
  warmUp: number,
) {
  const replayArgs = { text: 'note', idempotency_key: `growth-replay-${size}` };
  const first = (await app.gateway.call({ name: BENCH_WRITE_TOOL, arguments: replayArgs }, principal))
    .envelope;
  const read = () =>
    app.gateway
      .call({ name: 'operations_get', arguments: { operation_id: first.operation_id } }, principal)
      .then((answer) => answer.envelope);
  const replay = () =>
    app.gateway
      .call({ name: BENCH_WRITE_TOOL, arguments: replayArgs }, principal)
      .then((answer) => answer.envelope);
  await timed(warmUp, () => write(app));
  // What a serving gateway's background loop does once its tables hold rows (first-statistics.ts), here
  // at once and whatever the server's row counts say yet: without it, the empty store was measured on
  // plans made while its tables were empty.
  if (app.db.dialect === 'postgres') await new FirstStatistics(app.db, () => undefined, 0).check();
  const writes = await timed(calls, () => write(app));
  await timed(warmUp, read);
  const reads = await timed(calls, read);
  await timed(warmUp, replay);
  const replays = await timed(calls, replay);
  const passes = await timed(5, () => app.operations.reconciler.runOnce());
  // The console's filters: by status (a common one and a rare one), by tool, none, and the last day.
  const since = Date.now() - DAY;
  const listings = [
    { status: 'completed' as const },
    { status: 'needs_review' as const },
    { tool: BENCH_WRITE_TOOL },
    {},
    { since },
  ];
  const lists = await timed(200, (i) =>
    listOperations(app.db, 'bench', { limit: 50, ...listings[i % listings.length] }),
  );
  const audits = await timed(200, (i) =>
    app.operations.audit.list({
      tenant: 'bench',
      limit: 50,
      ...[{}, { subject: 'agent-07' }, { since }][i % 3],
    }),
  );
  const window = parseActivityWindow(new URLSearchParams(), Date.now());
  if (!window.ok) throw new Error('activity window');
  const activity = await timed(50, () => readActivityHistory(app.db, 'bench', window.value));
  const bytes =
    app.db.dialect === 'sqlite'
      ? readdirSync(dataDir).reduce((sum, f) => sum + statSync(join(dataDir, f)).size, 0)
      : Number(
          (await app.db.query<{ b: unknown }>('SELECT pg_database_size(current_database()) AS b'))[0]!.b,
        );
  return {
    size,
    seedSeconds,
    write: writes,
    read: reads,
    replay: replays,
    reconcileMs: 1000 / passes.perSecond,
    listP99: lists.p99,
    auditP99: audits.p99,
    activityP99: activity.p99,
    bytesPerOperation: size > 0 ? bytes / size : Number.NaN,
  } satisfies SizeRow;
}

/** One store grown from empty through `sizes`, then a purge of `expired` rows under write load. */
async function growStore(
  dialect: SqlDialect,
  options: { sizes: readonly number[]; calls: number; expired: number },
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-growth-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : null;
  const app = await createApp({
    dataDir,
    databaseUrl: scratch?.url,
    logger: pino({ level: 'silent' }),
    backgroundJobs: false,
    modules: [benchDomain],
    retentionSeconds: 60 * 86_400,
  });
  try {
    const rows: SizeRow[] = [];
    let stored = 0;
    const now = Date.now();
    for (const size of options.sizes) {
      const started = performance.now();
      if (size > stored) {
        // Creation times over the last 30 days; older sizes keep their rows, new ones come after them.
        await seedStore(app.db, {
          operations: size - stored,
          first: stored,
          tenants: TENANTS,
          tool: BENCH_WRITE_TOOL,
          now: now - 30 * DAY + (30 * DAY * size) / options.sizes.at(-1)!,
          spanMs: (30 * DAY * (size - stored)) / options.sizes.at(-1)!,
          retentionMs: 60 * DAY,
        });
        stored = size;
      }
      const seeded = (performance.now() - started) / 1000;
      process.stderr.write(`  growth: ${dialect} seeded to ${size} in ${seeded.toFixed(1)} s\n`);
      if (size > 0) {
        const settling = performance.now();
        await settleAfterSeed(app, dataDir);
        const settled = (performance.now() - settling) / 1000;
        process.stderr.write(`  growth: ${dialect} settled after the seed in ${settled.toFixed(1)} s\n`);
      }
      const warmUp = rows.length === 0 ? WARM_UP_CALLS.first : WARM_UP_CALLS.next;
      rows.push(await measureSize(app, size, seeded, options.calls, dataDir, warmUp));
    }
    // Rows past both retentions (operations 60 days, audit 90), then the purge beside a write loop.
    const seedStarted = performance.now();
    await seedStore(app.db, {
      operations: options.expired,
      first: 10 * stored + 1,
      tenants: TENANTS,
      tool: BENCH_WRITE_TOOL,
      now: now - 100 * DAY,
      spanMs: DAY,
      retentionMs: DAY,
    });
    const expiredSeedSeconds = (performance.now() - seedStarted) / 1000;
    process.stderr.write(
      `  growth: ${dialect} seeded ${options.expired} expired rows in ${expiredSeedSeconds.toFixed(1)} s\n`,
    );
    const before = await timed(PURGE_BASELINE_WRITES, () => write(app));
    let purging = true;
    const purgeStarted = performance.now();
    const purge = app.operations.purge().finally(() => {
      purging = false;
    });
    const times: number[] = [];
    while (purging) {
      const t = performance.now();
      await write(app);
      times.push(performance.now() - t);
    }
    const purged = await purge;
    const purgeSeconds = (performance.now() - purgeStarted) / 1000;
    times.sort((a, b) => a - b);
    const during = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Number.NaN;
    return {
      rows,
      purged,
      purgeSeconds,
      expiredSeedSeconds,
      beforeP99: before.p99,
      duringP99: during,
      writesDuring: times.length,
    };
  } finally {
    await app.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The growth section of `npm run bench`: one in-process gateway per store grown from empty to a million
 * operations (with their audit entries) by bulk SQL, measuring at each size durable writes, reads
 * (operations_get), replays, one reconciler pass and the operator API's listing, audit and activity
 * queries; then a retention purge of a million expired rows beside a write loop. Figures are ratios
 * against the empty store of the same run (target: within 10% at 10^6, operator queries p99 <= 50 ms,
 * write p99 during the purge <= 2x).
 */
export async function growthBench(input: GrowthBenchOptions = {}): Promise<BenchReport> {
  const options = {
    sizes: input.sizes ?? [0, 100_000, 1_000_000],
    calls: input.calls ?? 1_000,
    expired: input.expired ?? 1_000_000,
  };
  const stores = input.stores ?? ['sqlite', 'postgres'];
  const pg = stores.includes('postgres') && (await postgresAvailable());
  const dialects = stores.filter((d) => d === 'sqlite' || pg);
  const tableRows: { name: string; values: number[] }[] = [];
  const measures: BenchMeasure[] = [];
  for (const dialect of dialects) {
    const grown = await growStore(dialect, options);
    const empty = grown.rows[0]!;
    for (const r of grown.rows) {
      tableRows.push({
        name: `${dialect} ${r.size.toExponential(0)}`,
        values: [
          r.seedSeconds,
          r.write.perSecond,
          r.write.p99,
          r.read.perSecond,
          r.read.p99,
          r.replay.perSecond,
          r.replay.p99,
          r.reconcileMs,
          r.listP99,
          r.auditP99,
          r.activityP99,
          r.bytesPerOperation,
        ],
      });
    }
    const top = grown.rows.at(-1)!;
    const at = top.size.toExponential(0);
    measures.push(
      {
        name: `${dialect} ${at}: write ops/s / empty (target >= 0.9)`,
        value: top.write.perSecond / empty.write.perSecond,
        unit: 'x',
      },
      { name: `${dialect} ${at}: write p99 / empty`, value: top.write.p99 / empty.write.p99, unit: 'x' },
      {
        name: `${dialect} ${at}: read ops/s / empty (target >= 0.9)`,
        value: top.read.perSecond / empty.read.perSecond,
        unit: 'x',
      },
      { name: `${dialect} ${at}: read p99 / empty`, value: top.read.p99 / empty.read.p99, unit: 'x' },
      {
        name: `${dialect} ${at}: replay ops/s / empty (target >= 0.9)`,
        value: top.replay.perSecond / empty.replay.perSecond,
        unit: 'x',
      },
      { name: `${dialect} ${at}: replay p99 / empty`, value: top.replay.p99 / empty.replay.p99, unit: 'x' },
      {
        name: `${dialect} ${at}: reconciler pass / empty`,
        value: top.reconcileMs / empty.reconcileMs,
        unit: 'x',
      },
      { name: `${dialect} ${at}: operator listing p99 (target <= 50)`, value: top.listP99, unit: 'ms' },
      { name: `${dialect} ${at}: operator audit p99 (target <= 50)`, value: top.auditP99, unit: 'ms' },
      { name: `${dialect} ${at}: operator activity p99 (target <= 50)`, value: top.activityP99, unit: 'ms' },
      {
        name: `${dialect}: operations purged (each with its audit entry)`,
        value: grown.purged,
        unit: 'rows',
      },
      { name: `${dialect}: seeding them`, value: grown.expiredSeedSeconds * 1000, unit: 'ms' },
      { name: `${dialect}: background purge of them`, value: grown.purgeSeconds * 1000, unit: 'ms' },
      { name: `${dialect}: writes during the purge`, value: grown.writesDuring, unit: 'calls' },
      { name: `${dialect}: write p99 before the purge`, value: grown.beforeP99, unit: 'ms' },
      { name: `${dialect}: write p99 during the purge`, value: grown.duringP99, unit: 'ms' },
      {
        name: `${dialect}: write p99 during purge / before (target <= 2)`,
        value: grown.duringP99 / grown.beforeP99,
        unit: 'x',
      },
    );
  }
  return {
    table: {
      columns: [
        { title: 'seed s', digits: 1 },
        { title: 'write/s', digits: 0 },
        { title: 'write p99', digits: 2 },
        { title: 'read/s', digits: 0 },
        { title: 'read p99', digits: 2 },
        { title: 'replay/s', digits: 0 },
        { title: 'replay p99', digits: 2 },
        { title: 'reconcile ms', digits: 2 },
        { title: 'list p99', digits: 2 },
        { title: 'audit p99', digits: 2 },
        { title: 'activity p99', digits: 2 },
        { title: 'bytes/op', digits: 0 },
      ],
      rows: tableRows,
    },
    measures,
  };
}
