import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { pino } from 'pino';
import { createApp } from '../app/create-app.ts';
import type { ToolgateModule } from '../app/module.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import { type ContractDocument, parseContract, readContractFile } from './contract-document.ts';
import { buildContractDocument } from './contract-export.ts';

export interface ServedContractOptions {
  /**
   * Retention published in write/request contracts, as `serve --retention-seconds` sets it. Only
   * explicit: the committed contract uses the default whatever the environment says.
   */
  readonly retentionSeconds?: number;
}

/**
 * The registry `toolgate serve` builds for these modules, obtained the same way (createApp) but on a
 * throw-away SQLite directory, without demo data or background jobs. Tool definitions are plain
 * values, so they stay usable after the app is closed.
 */
export async function loadServedRegistry(
  modules: readonly ToolgateModule[],
  options: ServedContractOptions = {},
): Promise<ToolRegistry> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-contract-'));
  try {
    const app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      seed: false,
      backgroundJobs: false,
      modules,
      ...(options.retentionSeconds === undefined ? {} : { retentionSeconds: options.retentionSeconds }),
    });
    await app.close();
    return app.registry;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The contract of the tools these modules serve. */
export async function buildServedContract(
  modules: readonly ToolgateModule[],
  options: ServedContractOptions = {},
): Promise<ContractDocument> {
  return buildContractDocument(await loadServedRegistry(modules, options));
}

/**
 * A contract file, standard input for `-` (so `git show REV:FILE | toolgate contract diff -` works),
 * or, without a source, the contract of what is served.
 */
export async function loadContract(
  source: string | undefined,
  served: () => Promise<ContractDocument>,
): Promise<ContractDocument> {
  if (source === '-') return parseContract(await text(process.stdin), 'standard input');
  return source ? readContractFile(source) : served();
}
