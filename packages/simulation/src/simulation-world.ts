import type { Migration, ModuleContext, SqlDatabase } from 'toolgate';
import type { App } from 'toolgate/server';
import { simulationOf } from './app-simulation.ts';
import { EffectsLedger, effectsLedgerMigration } from './effects-ledger.ts';
import { FaultInjector } from './faults.ts';

/**
 * The shared parts of a simulated world over one database: the fault injector every simulated system
 * consults and the effects ledger every one of them writes to. Modules over the same database share
 * them, so a fault armed through the test API reaches whichever module's system it names.
 */
export interface SimulationWorld {
  readonly faults: FaultInjector;
  readonly ledger: EffectsLedger;
}

/** What a module built on the simulation kit works with: its module context plus the shared world. */
export interface SimulationContext extends ModuleContext, SimulationWorld {}

/** Tables the simulation kit needs; a module that uses the kit lists them among its migrations. */
export const simulationMigrations: readonly Migration[] = [effectsLedgerMigration];

// Kept on globalThis so that two copies of the package in one process (a config's modules resolving
// another copy than the command running them) still share one world per database.
const WORLDS = Symbol.for('toolgate.simulation-worlds');
const registry = globalThis as { [WORLDS]?: WeakMap<SqlDatabase, SimulationWorld> };
registry[WORLDS] ??= new WeakMap<SqlDatabase, SimulationWorld>();
const worlds = registry[WORLDS];

/** The simulated world over `db`, created on first use and shared by every caller with the same database. */
export function simulationWorld(db: SqlDatabase): SimulationWorld {
  let world = worlds.get(db);
  if (!world) {
    world = { faults: new FaultInjector(), ledger: new EffectsLedger(db) };
    worlds.set(db, world);
  }
  return world;
}

/** A module context joined with the simulated world of its database. */
export function withSimulation(context: ModuleContext): SimulationContext {
  return { ...context, ...simulationWorld(context.db) };
}

/** A fresh demo world: no armed faults, an empty ledger, then every simulated module reset and seeded. */
export async function resetSimulation(app: App): Promise<void> {
  const world = simulationWorld(app.db);
  world.faults.clear();
  await world.ledger.clear();
  await simulationOf(app).resetWorld();
}
