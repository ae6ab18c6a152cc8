import type { ToolgateModule } from 'toolgate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { newProbeLedger, probeReader, probeTools } from '../../../test/gateway/probe-tools.ts';
import { type StartedGateway, startGateway, TEST_CONTROLLER } from '../../../test/support/start-gateway.ts';
import { withSimulationHooks } from '../src/simulation-hooks.ts';
import { simulationMigrations, simulationWorld } from '../src/simulation-world.ts';

/** A domain with a world to simulate and fixtures to publish, recording what the test API did. */
const world = { resets: 0, simulated: [] as string[] };
const worldDomain: ToolgateModule = {
  name: 'world',
  migrations: simulationMigrations,
  create: (ctx) =>
    withSimulationHooks(
      { tools: probeTools(newProbeLedger()) },
      {
        principals: [probeReader],
        async seed() {},
        async reset() {
          world.resets += 1;
        },
        async fixtures() {
          return { orders: { unshipped: [{ id: 'ord_1', owner: 'probe_reader' }] } };
        },
        async simulate(target, action, params) {
          if (target !== 'warehouse') return null;
          const { order_id } = z.strictObject({ order_id: z.string() }).parse(params);
          world.simulated.push(`${action}:${order_id}`);
          await simulationWorld(ctx.db).ledger.record({
            system: 'warehouse',
            action,
            ref: String(params.order_id),
            tenant: 't',
            requestId: null,
            data: {},
          });
          return { locked: true };
        },
      },
    ),
};

describe('the test API', () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway({ modules: [worldDomain], testApi: true });
  });
  afterAll(() => gw.close());

  test('fixtures: demo principals with their claims and a working token, plus domain fixtures', async () => {
    const { status, body } = await gw.testApi('GET', '/test-api/fixtures');
    expect(status).toBe(200);
    const fixtures = body as {
      principals: { name: string; claims: object; token: string }[];
      orders: unknown;
    };
    expect(fixtures.orders).toEqual({ unshipped: [{ id: 'ord_1', owner: 'probe_reader' }] });
    const [reader] = fixtures.principals;
    expect(reader).toMatchObject({
      name: 'probe_reader',
      claims: { sub: 'user_probe_reader', tenant: 'tenant_probe', actor: 'customer', scope: 'probe:read' },
    });
    const withFixtureToken = await fetch(gw.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader!.token}`, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(withFixtureToken.status).toBe(200);
  });

  test('faults: armed in the app, listed, cleared; a bad spec names its fields', async () => {
    const armed = await gw.testApi('POST', '/test-api/faults', {
      target: 'warehouse',
      fault: 'unavailable',
      times: 2,
    });
    expect(armed.status).toBe(201);
    expect(simulationWorld(gw.app.db).faults.list()).toEqual([
      expect.objectContaining({ target: 'warehouse', fault: 'unavailable', remaining: 2 }),
    ]);
    const bad = await gw.testApi('POST', '/test-api/faults', {
      target: 'warehouse',
      fault: 'explode',
      extra: 1,
    });
    expect(bad.status).toBe(400);
    expect(
      (bad.body as { field_errors: { field: string }[] }).field_errors.map((e) => e.field).sort(),
    ).toEqual(['extra', 'fault']);
    expect(simulationWorld(gw.app.db).faults.list()).toHaveLength(1);
    expect((await gw.testApi('POST', '/test-api/faults', { clear: true })).status).toBe(200);
    expect(simulationWorld(gw.app.db).faults.list()).toEqual([]);
    await gw.testApi('POST', '/test-api/faults', { target: 'carrier', fault: 'timeout' });
    expect((await gw.testApi('DELETE', '/test-api/faults')).status).toBe(200);
    expect(simulationWorld(gw.app.db).faults.list()).toEqual([]);
  });

  test('simulate reaches the domain owning the target; effects come from the ledger', async () => {
    const done = await gw.testApi('POST', '/test-api/simulate', {
      target: 'warehouse',
      action: 'lock_order',
      params: { order_id: 'ord_9' },
    });
    expect(done).toEqual({
      status: 200,
      body: { target: 'warehouse', action: 'lock_order', outcome: { locked: true } },
    });
    expect(world.simulated).toContain('lock_order:ord_9');
    const none = await gw.testApi('POST', '/test-api/simulate', {
      target: 'moon',
      action: 'land',
      params: {},
    });
    expect(none.status).toBe(404);
    const before = world.simulated.length;
    const badParams = await gw.testApi('POST', '/test-api/simulate', {
      target: 'warehouse',
      action: 'lock_order',
      params: { order: 'ord_9' },
    });
    expect(badParams.status).toBe(400);
    expect(badParams.body).toMatchObject({
      error: 'invalid_params',
      field_errors: expect.arrayContaining([expect.objectContaining({ field: 'params.order_id' })]),
    });
    expect(world.simulated).toHaveLength(before);
    const effects = await gw.testApi('GET', '/test-api/effects?target=warehouse&ref=ord_9');
    expect((effects.body as { effects: { action: string; ref: string }[] }).effects).toEqual([
      expect.objectContaining({ system: 'warehouse', action: 'lock_order', ref: 'ord_9' }),
    ]);
    const badQuery = await gw.testApi('GET', '/test-api/effects?colour=red');
    expect(badQuery.status).toBe(400);
  });

  test('reset gives a fresh world: faults cleared, domains reset, ledger empty', async () => {
    await gw.testApi('POST', '/test-api/faults', { target: 'warehouse', fault: 'unavailable' });
    await gw.testApi('POST', '/test-api/simulate', {
      target: 'warehouse',
      action: 'lock_order',
      params: { order_id: 'ord_reset' },
    });
    expect(simulationWorld(gw.app.db).faults.list()).not.toEqual([]);
    expect(await simulationWorld(gw.app.db).ledger.list()).not.toEqual([]);
    const before = world.resets;
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
    expect(world.resets).toBe(before + 1);
    expect(simulationWorld(gw.app.db).faults.list()).toEqual([]);
    expect(await simulationWorld(gw.app.db).ledger.list()).toEqual([]);
  });

  test('requires a token with test:control', async () => {
    const noToken = await fetch(`${gw.origin}/test-api/fixtures`);
    expect(noToken.status).toBe(401);
    const resetsBefore = world.resets;
    const reader = await fetch(`${gw.origin}/test-api/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await gw.tokenFor('probe_reader')}` },
    });
    expect(reader.status).toBe(403);
    expect(world.resets).toBe(resetsBefore);
    const control = await fetch(`${gw.origin}/test-api/fixtures`, {
      headers: { authorization: `Bearer ${await gw.tokenFor(TEST_CONTROLLER)}` },
    });
    expect(control.status).toBe(200);
  });
});

describe('without --enable-test-api', () => {
  test('the test API does not exist', async () => {
    const gw = await startGateway({ modules: [worldDomain] });
    try {
      const response = await gw.testApi('POST', '/test-api/reset');
      expect(response.status).toBe(404);
    } finally {
      await gw.close();
    }
  });
});
