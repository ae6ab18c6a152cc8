import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoPrincipal } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { newProbeLedger, probeTools } from '../../../../test/gateway/probe-tools.ts';
import { rawPost } from '../../../../test/hardening/raw-post.ts';
import {
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { limitsSummary } from '../../src/cli/serve-limits.ts';
import { resolveServeConfig } from '../../src/cli/serve-options.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import type { FleetLease } from '../../src/gateway/fleet-buckets.ts';
import { PrincipalRateLimiter, type RateLimitSettings } from '../../src/gateway/rate-limit-layer.ts';

const pgUp = await postgresAvailable();

const RATE = 40;
/** Generous: a loaded machine may take a while to start a write. */
const POLL = { timeout: 8_000 };
const writer: DemoPrincipal = {
  name: 'fleet_writer',
  subject: 'user_fleet_writer',
  tenant: 'tenant_fleet',
  actor: 'customer',
  scopes: ['probe:read', 'fleet:write'],
  description: 'Reads the probes and holds writes open across the fleet.',
};

/** Writes held open until the test lets them finish: what is executing at once is what the test counts. */
function heldWrites() {
  const running: { key: string; finish: () => void }[] = [];
  const tool = defineTool({
    name: 'fleet_hold',
    title: 'Hold a write open',
    description: 'Executes until the test lets it finish; the tests count the writes executing at once.',
    kind: 'write',
    mutation: 'update',
    version: '1.0.0',
    input: z.strictObject({ idempotency_key: idempotencyKeySchema }),
    output: z.strictObject({ key: z.string() }),
    errors: [],
    examples: [],
    scopes: ['fleet:write'],
    timeoutMs: 10_000,
    reconcile: async () => ({ settled: false as const, note: 'the held writes keep no log' }),
    async handler(input) {
      await new Promise<void>((finish) => running.push({ key: input.idempotency_key, finish }));
      return outcome.completed({ key: input.idempotency_key });
    },
  });
  return { tool, running };
}

interface Fleet {
  readonly gateways: readonly StartedGateway[];
  readonly headers: readonly Record<string, string>[];
  readonly held: ReturnType<typeof heldWrites>;
}

async function startFleet(db: ScratchDatabase, limits: RateLimitSettings): Promise<Fleet> {
  const held = heldWrites();
  const gateways: StartedGateway[] = [];
  for (let i = 0; i < 3; i++) {
    gateways.push(
      await startGateway({
        modules: [],
        tools: [...probeTools(newProbeLedger()), held.tool],
        principals: [writer],
        databaseUrl: db.url,
        app: { limits, backgroundJobs: false },
      }),
    );
  }
  // Each gateway has its own dev key; the principal (tenant and subject) is the same on all three.
  const headers = await Promise.all(
    gateways.map(async (gw) => ({
      authorization: `Bearer ${await gw.tokenFor('fleet_writer')}`,
      'content-type': 'application/json',
      accept: 'application/json',
    })),
  );
  return { gateways, headers, held };
}

const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

/** The envelope of one tools/call over raw HTTP. */
async function envelopeOf(fleet: Fleet, gateway: number, body: string) {
  const reply = await rawPost(fleet.gateways[gateway]!.url, fleet.headers[gateway]!, body);
  expect(reply.status).toBe(200);
  return (JSON.parse(reply.body) as { result: { structuredContent: { status: string; code?: string } } })
    .result.structuredContent;
}

/**
 * Drives one principal evenly over the three gateways, one read every `everyMs` on each, for `ms`;
 * answers what was served and refused RATE_LIMITED, and over how many seconds reads were sent: from the
 * first to the last sent, the time the bucket refilled for them. The answers still in flight after the
 * last one was sent refill nothing, so on a loaded machine, where they take longer, counting their time
 * too would expect more than the rate allows.
 */
async function drive(fleet: Fleet, ms: number, everyMs: number) {
  let served = 0;
  let refused = 0;
  const started = performance.now();
  let lastSent = started;
  const loops = fleet.gateways.map(async (_gw, i) => {
    const pending: Promise<void>[] = [];
    for (let at = 0; at < ms; at += everyMs) {
      lastSent = Math.max(lastSent, performance.now());
      pending.push(
        envelopeOf(fleet, i, call('probe_echo', { text: 'fleet' })).then((envelope) => {
          if (envelope.status === 'completed') served += 1;
          else if (envelope.code === 'RATE_LIMITED') refused += 1;
          else throw new Error(`unexpected answer ${JSON.stringify(envelope)}`);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, started + at + everyMs - performance.now()));
    }
    await Promise.all(pending);
  });
  await Promise.all(loops);
  return { served, refused, seconds: (lastSent - started) / 1000 };
}

async function closeFleet(fleet: Fleet | undefined) {
  for (const running of fleet?.held.running ?? []) running.finish();
  await Promise.all(fleet?.gateways.map((gw) => gw.close()) ?? []);
}

describe.skipIf(!pgUp)('limits across a fleet of three gateways on one PostgreSQL database', () => {
  let db: ScratchDatabase;
  let fleet: Fleet | undefined;
  let perProcess: Fleet | undefined;

  beforeAll(async () => {
    db = await createScratchDatabase();
    fleet = await startFleet(db, { perPrincipal: RATE, writesInFlightPerPrincipal: 2 });
  });
  afterAll(async () => {
    await closeFleet(fleet);
    await closeFleet(perProcess);
    await db?.drop();
  });

  test('one principal spread evenly over three gateways is served its rate once, within 10%', async () => {
    // 150 reads a second against a rate of 40: the fleet serves rate x seconds + burst.
    const { served, refused, seconds } = await drive(fleet!, 3_000, 20);
    const expected = RATE * seconds + RATE;
    expect(served + refused).toBeGreaterThan(400);
    // Every lease was answered in time: no gateway fell back to its own limits.
    for (const gw of fleet!.gateways)
      expect((await gw.app.metrics.fleetLimitFailures.get()).values[0]?.value).toBe(0);
    // The figures in the message tell, when a loaded machine misses, which way it missed.
    expect(
      Math.abs(served - expected) / expected,
      JSON.stringify({ served, refused, seconds, expected }),
    ).toBeLessThanOrEqual(0.1);
    // The shared bucket is the one every gateway drew on.
    const rows = await fleet!.gateways[0]!.app.db.query<{ bucket: string }>(
      'SELECT bucket FROM fleet_limit_buckets',
    );
    expect(rows.map((r) => JSON.parse(r.bucket) as string)).toEqual(['tenant_fleet\nuser_fleet_writer']);
  }, 20_000);

  test('with fleet limits off, each gateway serves the principal its own rate', async () => {
    perProcess = await startFleet(db, { perPrincipal: RATE, fleet: false });
    const { served, seconds } = await drive(perProcess, 1_500, 10);
    // Three buckets of their own: about three times what one fleet bucket would give.
    expect(served).toBeGreaterThan(2 * (RATE * seconds + RATE));
  }, 20_000);

  test('the writes-in-flight cap holds across the gateways, and a crashed gateway holds no slot past its expiry', async () => {
    const { held } = fleet!;
    const key = (label: string) => `fleet-${label}-${'k'.repeat(16)}`;
    const first = envelopeOf(fleet!, 0, call('fleet_hold', { idempotency_key: key('a') }));
    const second = envelopeOf(fleet!, 1, call('fleet_hold', { idempotency_key: key('b') }));
    await expect.poll(() => held.running.length, POLL).toBe(2);
    // The third gateway has no write of its own executing, yet the fleet's two slots are taken.
    const third = await envelopeOf(fleet!, 2, call('fleet_hold', { idempotency_key: key('c') }));
    expect(third).toMatchObject({ status: 'failed', code: 'RATE_LIMITED' });
    expect(held.running.map((r) => r.key).sort()).toEqual([key('a'), key('b')]);
    for (const running of held.running.splice(0)) running.finish();
    expect(await first).toMatchObject({ status: 'completed' });
    expect(await second).toMatchObject({ status: 'completed' });
    // Both slots given back: the store holds no claim, and the third gateway's write runs.
    await expect
      .poll(
        async () => (await fleet!.gateways[0]!.app.db.query('SELECT * FROM fleet_write_claims')).length,
        POLL,
      )
      .toBe(0);
    // A gateway that stopped with two slots claimed: they count until their claim expires.
    await fleet!.gateways[0]!.app.db.execute(
      `INSERT INTO fleet_write_claims (principal, gateway, held, expires_at)
       VALUES ($1, 'crashed', 2, (EXTRACT(EPOCH FROM now()) * 1000)::bigint + 800)`,
      [JSON.stringify('tenant_fleet\nuser_fleet_writer')],
    );
    const blocked = await envelopeOf(fleet!, 2, call('fleet_hold', { idempotency_key: key('d') }));
    expect(blocked).toMatchObject({ status: 'failed', code: 'RATE_LIMITED' });
    await new Promise((resolve) => setTimeout(resolve, 900));
    const after = envelopeOf(fleet!, 2, call('fleet_hold', { idempotency_key: key('d') }));
    await expect.poll(() => held.running.length, POLL).toBe(1);
    for (const running of held.running.splice(0)) running.finish();
    expect(await after).toMatchObject({ status: 'completed' });
  }, 20_000);
});

describe.skipIf(!pgUp)('the reply-byte budget across a fleet of three gateways', () => {
  let db: ScratchDatabase;
  let fleet: Fleet | undefined;
  const BUDGET = 100_000;

  beforeAll(async () => {
    db = await createScratchDatabase();
    fleet = await startFleet(db, { replyBytesPerSecondPerPrincipal: BUDGET });
  });
  afterAll(async () => {
    await closeFleet(fleet);
    await db?.drop();
  });

  test('answers charged on three gateways spend one budget: within 10% of budget x seconds + burst', async () => {
    // The answers' bytes as the transport charges them once written: 1000 bytes a request admitted.
    const principal = { tenant: 'tenant_fleet', subject: 'user_fleet_writer' } as Principal;
    const limiters = fleet!.gateways.map((gw) => gw.app.gateway.limits!);
    let admitted = 0;
    const started = performance.now();
    await Promise.all(
      limiters.map(async (limiter) => {
        for (let at = 0; at < 3_000; at += 5) {
          if (limiter.takeRequest(principal, 1) === null) {
            admitted += 1;
            limiter.chargeReplyBytes(principal, 1_000);
          }
          await new Promise((resolve) => setTimeout(resolve, started + at + 5 - performance.now()));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const expected = (BUDGET * seconds + BUDGET) / 1_000;
    expect(Math.abs(admitted - expected) / expected).toBeLessThanOrEqual(0.1);
    const rows = await fleet!.gateways[0]!.app.db.query<{ bucket: string }>(
      'SELECT bucket FROM fleet_limit_buckets',
    );
    expect(rows.map((r) => JSON.parse(r.bucket) as string)).toEqual([
      'tenant_fleet\nuser_fleet_writer\nbytes',
    ]);
  }, 20_000);
});

describe('when the fleet store fails', () => {
  const alice = { tenant: 't', subject: 'alice', actor: 'customer', scopes: [] } as unknown as Principal;
  const refused = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  test('the gateway limits alone (never unlimited), says so, and holds the fleet again once the store answers', async () => {
    let now = 0;
    let down = true;
    const told: string[] = [];
    const leases: number[] = [];
    const store = {
      async lease(_bucket: string, burst: number, _rate: number, want: number): Promise<FleetLease> {
        leases.push(want);
        if (down) throw refused();
        return { granted: Math.min(want, burst), left: burst - Math.min(want, burst) };
      },
      async claim(): Promise<boolean> {
        throw refused();
      },
      lower: async () => undefined,
      renew: async () => undefined,
    };
    const limiter = new PrincipalRateLimiter({ perPrincipal: 2, writesInFlightPerPrincipal: 1 }, () => now, {
      store,
      events: { failed: () => told.push('failed'), local: (on) => told.push(on ? 'local' : 'fleet') },
    });
    try {
      // The first call is served on credit while its lease is asked for; the lease fails.
      expect(limiter.takeToken(alice, 'read')).toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
      expect(told).toEqual(['failed', 'local']);
      // From now on the process's own bucket of 2 decides: refused past it, with its wait.
      expect(limiter.takeToken(alice, 'read')).toBeNull();
      expect(limiter.takeToken(alice, 'read')).toBeNull();
      expect(limiter.takeToken(alice, 'read')).toMatchObject({ waitMs: 500 });
      expect(leases).toHaveLength(1);
      // A write slot the store cannot claim: the gateway's own cap of 1 decides.
      const tool = new ToolRegistry({ retentionSeconds: 60 }).register(heldWrites().tool).get('fleet_hold')!;
      const first = limiter.writeSlotFor(tool, alice, 'key-1');
      expect(await first.take()).toBeNull();
      const second = limiter.writeSlotFor(tool, alice, 'key-2');
      expect(await second.take()).toMatchObject({ kind: 'answer', envelope: { code: 'RATE_LIMITED' } });
      expect(told.filter((t) => t === 'failed')).toHaveLength(2);
      // Five seconds on, the store is asked again and answers: the fleet decides again.
      now = 5_001;
      down = false;
      expect(limiter.takeToken(alice, 'read')).toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
      expect(told.at(-1)).toBe('fleet');
      expect(leases).toHaveLength(2);
    } finally {
      limiter.close();
    }
  });
});

describe('the Limits banner', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-fleet-banner-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const bannerOf = (raw: Parameters<typeof resolveServeConfig>[0]) =>
    limitsSummary(resolveServeConfig({ dataDir, ...raw }), 86_400);

  test('says whether the limits hold for the fleet, and what a gateway does when the database fails', () => {
    const url = 'postgres://toolgate@127.0.0.1:5432/toolgate';
    const fleet = bannerOf({ databaseUrl: url });
    expect(fleet).toContain('held for every gateway on this PostgreSQL database (leases of 5 tokens');
    expect(fleet).toContain('falls back to its own limits per process, never none');
    expect(fleet).toContain('toolgate_fleet_limits_local');
    expect(bannerOf({ databaseUrl: url, fleetLimits: false })).toContain(
      'per gateway process, fleet limits off: N gateways give a principal N times these',
    );
    expect(bannerOf({})).toContain('per gateway process (SQLite serves one process)');
  });
});
