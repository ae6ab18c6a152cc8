import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parcelTools, shipArgs, shipper } from '../../../../test/operator/parcel-tools.ts';
import {
  adminQuery,
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { GatewayMetrics } from '../../src/telemetry/metrics.ts';
import { startTestGateway, type TestGateway } from '../../src/testing/test-gateway.ts';
import type { ShiftableClock } from '../../src/time/clock.ts';

const scrape = async (gw: TestGateway) => {
  const res = await fetch(new URL('/metrics', gw.origin));
  return { status: res.status, text: await res.text() };
};
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the readiness gauge when the backlog reading fails or hangs', () => {
  it('reports the database not ready and no backlog values, and the scrape itself succeeds', async () => {
    const failing = new GatewayMetrics();
    failing.watchBacklog(() => Promise.reject(new Error('connection refused')));
    const failed = (await failing.exposition()).body;
    expect(sample(failed, 'toolgate_database_ready')).toBe(0);
    expect(failed).not.toMatch(/^toolgate_operations_awaiting\{/m);
    expect(failed).not.toMatch(/^toolgate_operations_awaiting_oldest_age_seconds\{/m);

    const hanging = new GatewayMetrics({ scrapeDatabaseDeadlineMs: 20 });
    hanging.watchBacklog(() => new Promise(() => undefined));
    expect(sample((await hanging.exposition()).body, 'toolgate_database_ready')).toBe(0);
  });

  it('recovers on the next scrape once the store answers again', async () => {
    const metrics = new GatewayMetrics();
    let up = false;
    metrics.watchBacklog(async () => {
      if (!up) throw new Error('down');
      return [{ status: 'needs_review', count: 3, oldestCreatedAt: Date.now() - 5_000 }];
    });
    expect(sample((await metrics.exposition()).body, 'toolgate_database_ready')).toBe(0);
    up = true;
    const body = (await metrics.exposition()).body;
    expect(sample(body, 'toolgate_database_ready')).toBe(1);
    expect(sample(body, 'toolgate_operations_awaiting{status="needs_review"}')).toBe(3);
  });
});

describe('the operations signals of a gateway on SQLite', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      tools: parcelTools({ reviews: [] }),
      app: { backgroundJobs: false, limits: { perPrincipalByKind: { write: 1 } } },
    });
  });
  afterAll(async () => gw?.close());

  it('reports the database ready beside the backlog it read', async () => {
    const { status, text } = await scrape(gw);
    expect(status).toBe(200);
    expect(sample(text, 'toolgate_database_ready')).toBe(1);
    expect(sample(text, 'toolgate_operations_awaiting{status="needs_review"}')).toBe(0);
  });

  it('stamps the time of the last reconciler pass, 0 before the first', async () => {
    expect(sample((await scrape(gw)).text, 'toolgate_reconciler_last_pass_timestamp_seconds')).toBe(0);
    const before = Date.now() / 1000;
    await gw.app.operations.reconciler.runOnce();
    const stamped = sample((await scrape(gw)).text, 'toolgate_reconciler_last_pass_timestamp_seconds');
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now() / 1000);
  });

  it('counts rate-limited calls by tool and principal class, and nothing of them was stored', async () => {
    const read = await gw.callTool(shipper(), 'parcels_peek', { parcel_id: 'p-1' });
    const first = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`allowed-${randomUUID()}`));
    const refusedKey = `limited-${randomUUID()}`;
    const refused = await gw.callTool(shipper(), 'parcels_ship', shipArgs(refusedKey));
    expect(read.status).toBe('completed');
    expect(first.code).not.toBe('RATE_LIMITED');
    expect(refused).toMatchObject({ status: 'failed', code: 'RATE_LIMITED', operation_id: null });
    const { text } = await scrape(gw);
    expect(sample(text, 'toolgate_rate_limited_total{tool="parcels_ship",actor="support_agent"}')).toBe(1);
    expect(sample(text, 'toolgate_rate_limited_total{tool="parcels_peek",actor="support_agent"}')).toBe(
      undefined,
    );
    const stored = await gw.app.db.query<{ n: unknown }>(
      'SELECT COUNT(*) AS n FROM operations WHERE idem_key = ?',
      [refusedKey],
    );
    expect(Number(stored[0]!.n)).toBe(0);
  });

  it('counts the backlog the reconciler escalates', async () => {
    const parked = await gw.callTool(shipper('globex'), 'parcels_ship', shipArgs(`parked-${randomUUID()}`));
    expect(parked.status).toBe('outcome_unknown');
    (gw.app.clock as ShiftableClock).shift(600_000);
    await gw.app.operations.reconciler.runOnce();
    expect((await gw.operation(parked.operation_id!))?.status).toBe('needs_review');
    // The gauge is the store's backlog: the lost answer above and any earlier lost shipment of this file.
    const waiting = await gw.app.db.query<{ n: unknown }>(
      "SELECT COUNT(*) AS n FROM operations WHERE status = 'needs_review'",
    );
    expect(Number(waiting[0]!.n)).toBeGreaterThanOrEqual(1);
    expect(sample((await scrape(gw)).text, 'toolgate_operations_awaiting{status="needs_review"}')).toBe(
      Number(waiting[0]!.n),
    );
  });
});

describe.skipIf(!(await postgresAvailable()))('the readiness gauge when PostgreSQL stops answering', () => {
  let db: ScratchDatabase;
  let gw: TestGateway;
  beforeAll(async () => {
    db = await createScratchDatabase();
    gw = await startTestGateway({ databaseUrl: db.url, app: { backgroundJobs: false } });
  });
  afterEach(async () => {
    await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
  });
  afterAll(async () => {
    await gw?.close();
    await db?.drop();
  });

  it('answers the scrape with the database not ready, and ready again once it is back', async () => {
    expect(sample((await scrape(gw)).text, 'toolgate_database_ready')).toBe(1);
    await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}'`);
    const down = await scrape(gw);
    expect(down.status).toBe(200);
    expect(sample(down.text, 'toolgate_database_ready')).toBe(0);
    expect(down.text).not.toMatch(/^toolgate_operations_awaiting\{/m);
    expect((await fetch(new URL('/readyz', gw.origin))).status).toBe(503);

    await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
    await expect.poll(async () => sample((await scrape(gw)).text, 'toolgate_database_ready')).toBe(1);
  });
});
