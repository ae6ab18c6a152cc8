import { simulationHooksOf } from '@toolgate/simulation';
import type { ModuleInstance } from 'toolgate';

/**
 * Whether every trial of a run started from a known world. A module is reset between trials when it
 * simulates its systems (the simulation kit's hooks reset them) or has a `reset` hook for the real ones it calls; any
 * other module's systems keep what earlier trials did to them.
 */
export interface TrialIsolation {
  readonly isolated: boolean;
  /** Modules, by name, whose external systems nothing reset between trials. */
  readonly modulesWithoutReset: readonly string[];
}

/** The modules (name and created instance, in config order) judged for isolation. */
export function trialIsolation(
  modules: readonly { readonly name: string; readonly instance: ModuleInstance }[],
): TrialIsolation {
  const modulesWithoutReset = modules
    .filter(({ instance }) => simulationHooksOf(instance) === undefined && instance.reset === undefined)
    .map(({ name }) => name);
  return { isolated: modulesWithoutReset.length === 0, modulesWithoutReset };
}

/** The sentence, for one module nothing resets, that the command warns with and the reports repeat. */
export function isolationWarning(module: string): string {
  return (
    `module ${module} has no reset hook: the external systems it calls keep their state from one trial ` +
    'to the next, so the trials are not isolated'
  );
}
