/**
 * @toolgate/simulation, the simulation kit: simulated dependencies for tests, the demo and the
 * evaluation (a fault injector and its gate, an effects ledger, the simulation world every simulated
 * system shares), simulation hooks wrapped around a module (principals, seed, reset, fixtures) and the
 * test API. toolgate reaches it only as an extension a config or a test gateway names
 * (`simulationExtension`): the seed, the start-up banner, `demo tokens`, principals by name and the
 * test API (docs/extensions.md).
 * Every name is documented in docs/api.md.
 */

export type { AppSimulation } from './app-simulation.ts';
export { simulationOf } from './app-simulation.ts';
export type { BackendFaultKind, BackendFaultSpec } from './backend-faults.ts';
export { backendFaults, faultingFetch, interceptGlobalFetch } from './backend-faults.ts';
export { demoTokenList, demoWelcome } from './demo-welcome.ts';
export type { Effect, EffectFilter } from './effects-ledger.ts';
export { EffectsLedger } from './effects-ledger.ts';
export {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from './external-errors.ts';
export { throughFaults } from './fault-gate.ts';
export type { ArmedFault, ExternalCall, FaultSpec } from './faults.ts';
export { FAULT_KINDS, FaultInjector, faultSpecSchema } from './faults.ts';
export { simulationExtension } from './simulation-extension.ts';
export type { DemoIntroduction, DemoPrincipal, SimulationHooks } from './simulation-hooks.ts';
export { demoTokenSubject, simulationHooksOf, withSimulationHooks } from './simulation-hooks.ts';
export type { SimulationContext, SimulationWorld } from './simulation-world.ts';
export {
  resetSimulation,
  simulationMigrations,
  simulationWorld,
  withSimulation,
} from './simulation-world.ts';
export { testApiRoutes } from './test-api/test-api.ts';
