import { type App, ShiftableClock } from 'toolgate/server';
import {
  type DemoIntroduction,
  type DemoPrincipal,
  type SimulationHooks,
  simulationHooksOf,
} from './simulation-hooks.ts';

/** The simulated world of an app: what its simulated modules bring, and the world as a whole. */
export interface AppSimulation {
  /** The hooks of every simulated module, in module order (empty: the app simulates nothing). */
  readonly hooks: readonly SimulationHooks[];
  /** Demo principals of the simulated modules. */
  readonly principals: readonly DemoPrincipal[];
  /** What each simulated module's banner section offers a newcomer, in module order. */
  introductions(): DemoIntroduction[];
  /** Every simulated module's fixtures, each under its own keys, merged. */
  fixtures(): Promise<Record<string, unknown>>;
  /** Inserts every simulated module's demo world (each does nothing when its world is there). */
  seed(): Promise<void>;
  /**
   * Fresh demo world: every simulated module's data, the gateway's operation records and, when the app
   * runs on a shiftable clock, the clock. Armed faults and the effects ledger are `resetSimulation`'s.
   */
  resetWorld(): Promise<void>;
  /** The first simulated system's answer to a world action; null when no module knows it. */
  simulate(
    target: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null>;
}

/** The simulated world of `app`, read from its module instances' simulation hooks. */
export function simulationOf(app: App): AppSimulation {
  const hooks = app.modules.flatMap((m) => {
    const found = simulationHooksOf(m);
    return found ? [found] : [];
  });
  return {
    hooks,
    principals: hooks.flatMap((h) => h.principals),
    introductions: () =>
      hooks.flatMap((h) => {
        const introduction = h.introduction?.();
        return introduction ? [introduction] : [];
      }),
    async fixtures() {
      const merged: Record<string, unknown> = {};
      for (const h of hooks) Object.assign(merged, await h.fixtures());
      return merged;
    },
    async seed() {
      for (const h of hooks) await h.seed();
    },
    async resetWorld() {
      for (const h of hooks) await h.reset();
      await app.operations.clearRecords();
      if (app.clock instanceof ShiftableClock) app.clock.reset();
      for (const h of hooks) await h.seed();
    },
    async simulate(target, action, params) {
      for (const h of hooks) {
        const outcome = await h.simulate?.(target, action, params);
        if (outcome) return outcome;
      }
      return null;
    },
  };
}
