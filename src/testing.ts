/**
 * toolgate/testing: what a team needs to test its own tools in-process against a real store: a
 * gateway over real HTTP with dev tokens, a client whose user answers confirmations from a script,
 * and the simulation kit for their own simulated dependency (a fault injector, an effects ledger, the
 * fault gate). The project's own tests use the same helpers.
 * Every name is documented in docs/api.md.
 */

export type { TokenSubject } from './auth/token-claims.ts';
export type { AppSimulation } from './external/app-simulation.ts';
export { simulationOf } from './external/app-simulation.ts';
export type { Effect, EffectFilter } from './external/effects-ledger.ts';
export { EffectsLedger } from './external/effects-ledger.ts';
export {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from './external/external-errors.ts';
export { throughFaults } from './external/fault-gate.ts';
export type { ArmedFault, ExternalCall, FaultSpec } from './external/faults.ts';
export { FAULT_KINDS, FaultInjector } from './external/faults.ts';
export type { DemoIntroduction, DemoPrincipal, SimulationHooks } from './external/simulation-hooks.ts';
export { demoTokenSubject, withSimulationHooks } from './external/simulation-hooks.ts';
export type { SimulationContext, SimulationWorld } from './external/simulation-world.ts';
export {
  resetSimulation,
  simulationMigrations,
  simulationWorld,
  withSimulation,
} from './external/simulation-world.ts';
export type { AskedQuestion, ConfirmingClient, ScriptedAnswer } from './testing/confirming-client.ts';
export { confirmingClient } from './testing/confirming-client.ts';
export type { PrincipalRef, TestGateway, TestGatewayOptions } from './testing/test-gateway.ts';
export { startTestGateway, TEST_CONTROLLER, toolsModule } from './testing/test-gateway.ts';
