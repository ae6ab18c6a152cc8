import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApp } from '../app/create-app.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { resolveCommandConfig } from '../config/discover-config.ts';
import { ServeHooks } from '../extensions/serve-hooks.ts';
import { dataDirProblem, defaultAudience, resolveDataDir } from './serve-options.ts';
import { exitOnConfigError, servedModules } from './served-modules.ts';

/**
 * Prints the tokens the config's extensions offer (the simulation kit's: the demo principals') for the
 * server with this data dir. The modules are created on a throw-away database only to learn their
 * principals; the server's own database is not touched.
 */
export async function runDemoTokens(raw: {
  config?: string;
  dataDir?: string;
  audience?: string;
}): Promise<void> {
  const configFile = resolveCommandConfig('demo tokens', raw.config);
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
  const hooks = new ServeHooks(served.settings.extensions);
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-demo-'));
  try {
    const app = await createApp({
      dataDir: scratch,
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      modules: served.modules,
    });
    const audience = raw.audience ?? defaultAudience(served.settings);
    const keys = await loadOrCreateDevKeys(dataDir);
    const list = await hooks.tokenList(app, { url: audience, keys }).finally(() => app.close());
    if (list === null) {
      process.stderr.write(
        `toolgate demo tokens: no extension of the config ${served.file} offers demo principals ` +
          "(the simulation kit's does: extensions: [simulationExtension] from @toolgate/simulation)\n",
      );
      process.exitCode = 2;
      return;
    }
    process.stdout.write(list);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
