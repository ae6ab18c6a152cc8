import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApp } from '../app/create-app.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { resolveCommandConfig } from '../config/discover-config.ts';
import { requireSimulationKit } from '../testing/simulation-kit.ts';
import { dataDirProblem, defaultAudience, resolveDataDir } from './serve-options.ts';
import { exitOnConfigError, servedModules } from './served-modules.ts';

/**
 * Prints the demo principals' tokens for the server with this data dir. The modules are created on a
 * throw-away database only to learn their principals; the server's own database is not touched.
 */
export async function runDemoTokens(raw: {
  config?: string;
  dataDir?: string;
  audience?: string;
}): Promise<void> {
  const configFile = resolveCommandConfig('demo tokens', raw.config, { activity: 'listing' });
  const served = await servedModules(configFile).catch((error: unknown) => {
    exitOnConfigError('demo tokens', error);
    throw error;
  });
  const dataDir = resolveDataDir(raw.dataDir, served.settings);
  const problem = dataDirProblem(dataDir);
  if (problem) {
    process.stderr.write(`toolgate demo tokens: --data-dir ${dataDir}: ${problem}\n`);
    process.exit(2);
  }
  const kit = await requireSimulationKit('toolgate demo tokens');
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-demo-'));
  try {
    const app = await createApp({
      dataDir: scratch,
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      modules: served.modules,
    });
    const { principals } = kit.simulationOf(app);
    await app.close();
    const audience = raw.audience ?? defaultAudience(served.settings);
    process.stdout.write(await kit.demoTokenList(audience, principals, await loadOrCreateDevKeys(dataDir)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
