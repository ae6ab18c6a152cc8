import { defineExtension, type ToolgateExtension } from 'toolgate';
import { simulationOf } from './app-simulation.ts';
import { demoTokenList, demoWelcome } from './demo-welcome.ts';
import { demoTokenSubject } from './simulation-hooks.ts';
import { testApiRoutes } from './test-api/test-api.ts';

/**
 * The simulation kit as a toolgate extension: name it in a config (`extensions: [simulationExtension]`)
 * or a test gateway's options, and the simulated modules served get their demo world seeded, their demo
 * principals by name, the start-up banner's ready token and demo ids, `toolgate demo tokens`' list and
 * the test API of `--enable-test-api`.
 */
export const simulationExtension: ToolgateExtension = defineExtension({
  name: '@toolgate/simulation',
  serve: {
    seed: (app) => simulationOf(app).seed(),
    principals: (app) =>
      simulationOf(app).principals.map((p) => ({ name: p.name, subject: demoTokenSubject(p) })),
    // Mounted only over modules that bring a simulated world: there is nothing else to control.
    testApi: (app, { keys }) => (simulationOf(app).hooks.length === 0 ? null : testApiRoutes(app, { keys })),
    welcome: (app, { url, keys, dataDirOption }) => demoWelcome(app, url, keys, dataDirOption),
    tokenList: (app, { url, keys }) => demoTokenList(url, simulationOf(app).principals, keys),
  },
});
