import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessWorld } from '../../src/in-process-world.ts';
import { loadScenarios } from '../../src/scenario-loader.ts';
import { lampsDomain } from './lamps-domain.ts';

export const LAMP_SCENARIOS = join(import.meta.dirname, '..', 'scenarios');

/** A gateway serving the lamps domain over MCP HTTP, SQLite in a temp dir. */
export async function startLampsWorld() {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-eval-test-'));
  const world = await InProcessWorld.start({ modules: [lampsDomain], dataDir });
  return {
    world,
    scenarios: loadScenarios(LAMP_SCENARIOS),
    async close() {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
