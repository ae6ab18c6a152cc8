// The reference demo: what `npm start` (`toolgate serve` in this directory) serves, and what the
// commands run here (`eval`, `contract`, `lint`, `policy`, `demo tokens`) work on. The three reference
// domains, the policies they ship, and the simulation kit for their seeded world, demo principals,
// start-up banner and test API (docs/extensions.md).
import { DEMO_POLICY_DIR, referenceDomains } from '@toolgate/domains';
import { simulationExtension } from '@toolgate/simulation';
import { defineConfig } from 'toolgate';

export default defineConfig({
  modules: referenceDomains,
  policy: DEMO_POLICY_DIR,
  extensions: [simulationExtension],
});
