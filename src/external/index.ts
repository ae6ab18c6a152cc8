/**
 * The simulation kit's entry: what the toolgate CLI and test gateway reach, by a dynamic import of
 * this one file, when a feature needs the simulated world (`serve --enable-test-api`, the demo's seed
 * and start-up banner, `demo tokens`, `startTestGateway`'s demo principals and test API). Nothing else
 * of the kit is imported from outside it.
 */

export { simulationOf } from './app-simulation.ts';
export { demoTokenList, demoWelcome } from './demo-welcome.ts';
export type { DemoPrincipal } from './simulation-hooks.ts';
export { demoTokenSubject, withSimulationHooks } from './simulation-hooks.ts';
export { testApiRoutes } from './test-api/test-api.ts';
