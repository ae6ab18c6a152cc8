import { text } from 'node:stream/consumers';
import { ShiftableClock } from '../app/clock.ts';
import type { ModuleInstance, ToolgateModule } from '../app/module.ts';
import { ToolRegistry } from '../contract/tool-registry.ts';
import {
  DEFAULT_RETENTION_SECONDS,
  FRAMEWORK_MIGRATIONS,
  frameworkTools,
} from '../operations/framework-parts.ts';
import { OperationStore } from '../operations/operation-store.ts';
import { PolicyExceptions } from '../operations/policy-exceptions.ts';
import { ContractDatabase } from './contract-database.ts';
import { type ContractDocument, parseContract, readContractFile } from './contract-document.ts';
import { buildContractDocument } from './contract-export.ts';
import { deferredSilentLogger } from './deferred-logger.ts';

export interface ServedContractOptions {
  /**
   * Retention published in write/request contracts, as `serve --retention-seconds` sets it. Only
   * explicit: the committed contract uses the default whatever the environment says.
   */
  readonly retentionSeconds?: number;
}

/**
 * The registry `toolgate serve` builds for these modules: the same registry options, the same
 * `create()` calls and the same registration (operations_get first, then each module's tools in module
 * order), so the same registry rules refuse the same tools. Unlike createApp it opens no data directory,
 * starts no gateway, metrics or background work, and gives modules a database that is only opened if
 * they use it (see ContractDatabase). Tool definitions are plain values, usable after the modules close.
 */
export async function loadServedRegistry(
  modules: readonly ToolgateModule[],
  options: ServedContractOptions = {},
): Promise<ToolRegistry> {
  const registry = new ToolRegistry({
    retentionSeconds: options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
  });
  const db = new ContractDatabase([...FRAMEWORK_MIGRATIONS, ...modules.flatMap((m) => m.migrations ?? [])]);
  const logger = deferredSilentLogger();
  const clock = new ShiftableClock();
  // Background work is declared in create() and started only by a serving gateway: none runs here.
  const background = { every: () => undefined };
  const exceptions = new PolicyExceptions(db, clock, { record: () => undefined });
  const instances: ModuleInstance[] = [];
  const close = async () => {
    for (const instance of instances) await instance.close?.();
    await db.close();
  };
  try {
    for (const module of modules) {
      instances.push(
        await module.create({
          db,
          logger: logger.child({ module: module.name }),
          clock,
          background,
          exceptions,
        }),
      );
    }
    registry.register(...frameworkTools(new OperationStore(db)), ...instances.flatMap((m) => m.tools));
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  await close();
  return registry;
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
