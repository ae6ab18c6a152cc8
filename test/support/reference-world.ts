import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_POLICY_DIR } from '@toolgate/domains';
import { InProcessWorld } from '@toolgate/eval';
import { changesDomain } from '../../packages/domains/src/changes/changes-module.ts';
import { ordersDomain } from '../../packages/domains/src/orders/orders-domain.ts';
import { workitemsDomain } from '../../packages/domains/src/workitems/workitems-module.ts';
import { loadScenarios } from '../../packages/eval/src/scenario-loader.ts';

export const SCENARIO_ROOT = join(import.meta.dirname, '..', '..', 'eval', 'scenarios');

/** The three reference domains behind one gateway over MCP HTTP, SQLite in a temp dir, under the demo's policies. */
export async function startReferenceWorld() {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-eval-ref-'));
  const world = await InProcessWorld.start({
    modules: [ordersDomain, workitemsDomain, changesDomain],
    dataDir,
    // As `toolgate eval` serves the demo: decided by the demo's policies.
    policyDir: DEMO_POLICY_DIR,
  });
  return {
    world,
    scenarios: loadScenarios(SCENARIO_ROOT),
    async close() {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
