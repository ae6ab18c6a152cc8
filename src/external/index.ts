/**
 * The simulation kit's entry: what the toolgate CLI and test gateway reach, by a dynamic import of
 * this one file, when a feature needs the simulated world (`serve --enable-test-api`, the demo's
 * start-up banner and seed, `demo tokens`, `startTestGateway`'s demo principals). Nothing else of the
 * kit is imported from outside it.
 */

export type { AppSimulation } from './app-simulation.ts';
export { simulationOf } from './app-simulation.ts';
export { demoTokenList, demoWelcome } from './demo-welcome.ts';
export type { DemoIntroduction, DemoPrincipal, SimulationHooks } from './simulation-hooks.ts';
export { demoTokenSubject, simulationHooksOf, withSimulationHooks } from './simulation-hooks.ts';
export { resetSimulation } from './simulation-world.ts';
export type { TestApiOptions } from './test-api/test-api.ts';
export { testApiRoutes } from './test-api/test-api.ts';
