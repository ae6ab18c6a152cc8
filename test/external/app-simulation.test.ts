import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoPrincipal, simulationOf, withSimulationHooks } from '@toolgate/simulation';
import { pino } from 'pino';
import type { ToolgateModule } from 'toolgate';
import { createApp } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ShiftableClock, systemClock } from '../../packages/toolgate/src/time/clock.ts';

const keeper: DemoPrincipal = {
  name: 'keeper',
  subject: 'keeper',
  tenant: 'zoo',
  actor: 'customer',
  scopes: ['animals:read'],
  description: 'keeps the animals',
};

/** A simulated module whose demo world is rows in its one table; a plain one with no hooks beside it. */
const zoo: ToolgateModule = {
  name: 'zoo',
  migrations: [{ id: '9300_zoo', sql: 'CREATE TABLE zoo_animals (name TEXT PRIMARY KEY)' }],
  create: ({ db }) =>
    withSimulationHooks(
      { tools: [] },
      {
        principals: [keeper],
        async seed() {
          await db.execute("INSERT INTO zoo_animals (name) VALUES ('lion') ON CONFLICT DO NOTHING");
        },
        async reset() {
          await db.execute('DELETE FROM zoo_animals');
        },
        async fixtures() {
          return { zoo: { animals: (await db.query('SELECT name FROM zoo_animals')).map((r) => r.name) } };
        },
        introduction: () => ({ principal: 'keeper', ids: ['the lion'] }),
        async simulate(target, action) {
          if (target !== 'zoo') return null;
          await db.execute('INSERT INTO zoo_animals (name) VALUES (?)', [action]);
          return { arrived: action };
        },
      },
    ),
};
const plain: ToolgateModule = { name: 'plain', create: () => ({ tools: [] }) };

describe('the simulated world of an app, read by the kit', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-simulation-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('createApp seeds nothing and runs on the system clock; the kit seeds, simulates and resets', async () => {
    const app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      modules: [plain, zoo],
    });
    try {
      expect(app.clock).toBe(systemClock);
      expect(await app.db.query('SELECT name FROM zoo_animals')).toEqual([]);
      const simulation = simulationOf(app);
      expect(simulation.hooks).toHaveLength(1);
      expect(simulation.principals).toEqual([keeper]);
      expect(simulation.introductions()).toEqual([{ principal: 'keeper', ids: ['the lion'] }]);

      await simulation.seed();
      await simulation.seed();
      expect(await app.db.query('SELECT name FROM zoo_animals')).toEqual([{ name: 'lion' }]);
      expect(await simulation.simulate('zoo', 'tiger', {})).toEqual({ arrived: 'tiger' });
      expect(await simulation.simulate('aquarium', 'shark', {})).toBeNull();
      expect(await simulation.fixtures()).toEqual({ zoo: { animals: ['lion', 'tiger'] } });

      const keeperPrincipal = {
        subject: 'keeper',
        tenant: 'zoo',
        actor: 'customer' as const,
        scopes: new Set<string>(),
      };
      (await app.gateway.call({ name: 'operations_get', arguments: {} }, keeperPrincipal)).envelope;
      expect((await app.db.query('SELECT seq FROM audit_log')).length).toBeGreaterThan(0);
      await simulation.resetWorld();
      expect(await app.db.query('SELECT name FROM zoo_animals')).toEqual([{ name: 'lion' }]);
      expect(await app.db.query('SELECT seq FROM audit_log')).toEqual([]);
    } finally {
      await app.close();
    }
  });

  test('a reset puts a shiftable clock back; an app of plain modules simulates nothing', async () => {
    const clock = new ShiftableClock();
    const app = await createApp({
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-simulation-')),
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      modules: [plain],
      clock,
    });
    try {
      clock.shift(3_600_000);
      expect(clock.now() - Date.now()).toBeGreaterThan(3_000_000);
      const simulation = simulationOf(app);
      expect(simulation.hooks).toEqual([]);
      expect(simulation.principals).toEqual([]);
      await simulation.resetWorld();
      expect(clock.now() - Date.now()).toBeLessThan(1_000_000);
    } finally {
      await app.close();
    }
  });
});
