import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from 'toolgate/server';
import { requestFingerprint } from '../packages/toolgate/dist/contract/fingerprint.js';
import { newOperationId } from '../packages/toolgate/dist/operations/operation-id.js';
import type { SqlDialect } from '../packages/toolgate/dist/store/sql-database.js';
import { loadOrCreateDevKeys } from '../packages/toolgate/src/auth/dev-keys.ts';
import { mintToken } from '../packages/toolgate/src/auth/mint-token.ts';
import { createScratchDatabase, postgresAvailable } from '../test/support/pg.ts';
import { BENCH_SCOPE, BENCH_WRITE_TOOL, benchDomain } from './bench-domain.ts';
import type { BenchMeasure } from './bench-section.ts';
import type { CallLoadResult } from './call-load.ts';
import { legacyShape, REQUEST_SHAPES, type RequestShape } from './request-shape.ts';
import { type ServerLoadOptions, serverLoad } from './server-load.ts';

export interface OperationsBenchOptions {
  /** How long each measurement runs. */
  readonly durationMs?: number;
  /** Requests in flight at once against HTTP servers. */
  readonly concurrency?: number;
  /** Measured calls against each HTTP server. */
  readonly calls?: number;
}

const WRITE_SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
const NOOP_SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));

/** Runs `work` repeatedly with `concurrency` loops for `durationMs`; answers completions per second. */
async function rate(
  durationMs: number,
  concurrency: number,
  work: (i: number) => Promise<unknown>,
): Promise<number> {
  let done = 0;
  let next = 0;
  const stopAt = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < stopAt) {
        await work(next++);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** Reservations/s and replays/s at the idempotency layer, in process, on one store. */
async function storeRates(dialect: SqlDialect, durationMs: number): Promise<BenchMeasure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : null;
  const app = await createApp({
    dataDir,
    databaseUrl: scratch?.url,
    logger: pino({ level: 'silent' }),
    backgroundJobs: false,
    modules: [benchDomain],
  });
  try {
    const tool = app.registry.get(BENCH_WRITE_TOOL)!;
    const principal = {
      subject: 'bench',
      tenant: 'bench',
      actor: 'service' as const,
      scopes: new Set([BENCH_SCOPE]),
    };
    const concurrency = dialect === 'postgres' ? 8 : 1;
    const reservations = await rate(durationMs, concurrency, (i) => {
      const now = Date.now();
      return app.operations.store.reserve({
        id: newOperationId(now),
        tenant: 'bench',
        subject: 'bench',
        key: `bench-reserve-${i}-${now}`,
        tool: BENCH_WRITE_TOOL,
        contractVersion: '1.0.0',
        fingerprint: 'f'.repeat(64),
        contentHash: null,
        mode: 'execute',
        correlationId: 'bench',
        now,
        leaseExpiresAt: now + 60_000,
        expiresAt: now + 86_400_000,
      });
    });
    const args = { text: 'replayed', idempotency_key: 'bench-replay-key-0001' };
    await app.gateway.call({ name: BENCH_WRITE_TOOL, arguments: args }, principal);
    const call = {
      tool,
      principal,
      key: args.idempotency_key,
      fingerprint: requestFingerprint({ tool: BENCH_WRITE_TOOL, contractMajor: 1, mode: 'execute', args }),
      args,
      correlationId: 'bench',
    };
    const signal = new AbortController().signal;
    const replays = await rate(durationMs, concurrency, async () => {
      const { idempotency } = app.operations;
      const look = await idempotency.join(call, signal, await idempotency.find(call));
      if (look.kind !== 'answer' || !look.envelope.replayed) throw new Error('expected a replay');
    });
    return [
      { name: `${dialect}: reservations`, value: reservations, unit: 'ops/s' },
      { name: `${dialect}: replays`, value: replays, unit: 'ops/s' },
    ];
  } finally {
    await app.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The HTTP load of this section in one revision: a tenth of the measured calls first, to warm up. */
function warmedUp(options: Required<OperationsBenchOptions>, shape: RequestShape): ServerLoadOptions {
  return {
    calls: options.calls,
    concurrency: options.concurrency,
    warmupCalls: Math.ceil(options.calls / 10),
    shape,
  };
}

/** The bare SDK's no-op tool, served by the gateway-vs-SDK section's server (stateless, server per request). */
function sdkNoopRate(options: Required<OperationsBenchOptions>): Promise<CallLoadResult> {
  return serverLoad(
    NOOP_SERVER,
    ['sdk'],
    async (m) => ({ url: String(m.url), token: null }),
    () => ({ name: 'bench_noop', arguments: {} }),
    warmedUp(options, legacyShape),
  );
}

/**
 * Durable writes through the whole gateway in one revision: a new key (so a new operation) on every
 * call, on SQLite in a fresh data dir or on a fresh scratch PostgreSQL database.
 */
async function gatewayWriteRate(
  dialect: SqlDialect,
  shape: RequestShape,
  options: Required<OperationsBenchOptions>,
): Promise<CallLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  const scratch = dialect === 'postgres' ? await createScratchDatabase() : null;
  const databaseUrl = scratch?.url;
  try {
    const keys = await loadOrCreateDevKeys(dataDir);
    const run = Date.now();
    return await serverLoad(
      WRITE_SERVER,
      [dataDir, databaseUrl ?? ''],
      async (m) => ({
        url: `http://127.0.0.1:${String(m.port)}/mcp`,
        token: await mintToken(
          keys,
          { sub: 'bench', tenant: 'bench', actor: 'service', scopes: [BENCH_SCOPE] },
          { audience: String(m.resource) },
        ),
      }),
      (i) => ({
        name: BENCH_WRITE_TOOL,
        arguments: { text: 'note', idempotency_key: `bench-${shape.revision}-${run}-${i}` },
      }),
      warmedUp(options, shape),
    );
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The operations section of `npm run bench`: reservations/s and replays/s on SQLite and PostgreSQL,
 * and durable write calls/s through the whole gateway over HTTP, on 2025-11-25 and on 2026-07-28,
 * against the bare SDK's no-op tool measured in the same run (target: at least 1.5x on SQLite, on
 * both revisions).
 */
export async function operationsBench(input: OperationsBenchOptions = {}): Promise<BenchMeasure[]> {
  const options = {
    durationMs: input.durationMs ?? 3_000,
    concurrency: input.concurrency ?? 32,
    calls: input.calls ?? 10_000,
  };
  const pg = await postgresAvailable();
  const measures: BenchMeasure[] = [...(await storeRates('sqlite', options.durationMs))];
  if (pg) measures.push(...(await storeRates('postgres', options.durationMs)));
  const baseline = await sdkNoopRate(options);
  measures.push({
    name: 'bare SDK no-op over HTTP (baseline)',
    value: baseline.callsPerSecond,
    unit: 'calls/s',
  });
  for (const dialect of pg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const rates: CallLoadResult[] = [];
    for (const shape of REQUEST_SHAPES) {
      const writes = await gatewayWriteRate(dialect, shape, options);
      rates.push(writes);
      measures.push({
        name: `gateway durable write over HTTP, ${dialect}, ${shape.revision}`,
        value: writes.callsPerSecond,
        unit: 'calls/s',
      });
      if (dialect === 'sqlite') {
        measures.push({
          name: `gateway sqlite ${shape.revision} write / bare SDK no-op (target >= 1.5)`,
          value: writes.callsPerSecond / baseline.callsPerSecond,
          unit: 'x',
        });
      }
    }
    const [legacy, modern] = rates;
    if (legacy && modern) {
      measures.push({
        name: `gateway ${dialect} write 2026-07-28 / 2025-11-25`,
        value: modern.callsPerSecond / legacy.callsPerSecond,
        unit: 'x',
      });
    }
  }
  return measures;
}
