import { text } from 'node:stream/consumers';
import type { ModuleInstance, ToolgateModule } from '../app/module.ts';
import { ToolRegistry } from '../contract/tool-registry.ts';
import { ExceptionCatalog } from '../exceptions/exception-catalog.ts';
import {
  DEFAULT_RETENTION_SECONDS,
  FRAMEWORK_MIGRATIONS,
  frameworkTools,
} from '../operations/framework-parts.ts';
import { OperationStore } from '../operations/operation-store.ts';
import { PolicyExceptions } from '../operations/policy-exceptions.ts';
import { ShiftableClock } from '../time/clock.ts';
import { ContractDatabase } from './contract-database.ts';
import {
  type ContractDocument,
  type ContractImplementation,
  parseContract,
  readContractFile,
} from './contract-document.ts';
import { buildContractDocument } from './contract-export.ts';
import { contractPolicySet } from './contract-policy-set.ts';
import { deferredSilentLogger } from './deferred-logger.ts';

export interface ServedContractOptions {
  /**
   * Retention published in write/request contracts, as `serve --retention-seconds` sets it. Only
   * explicit: the committed contract uses the default whatever the environment says.
   */
  readonly retentionSeconds?: number;
  /** The project serving the tools (projectImplementation); absent: only the toolgate build is named. */
  readonly implementation?: ContractImplementation;
  /** The Cedar policy directory the gateway decides calls by; absent: none. */
  readonly policyDir?: string;
}

/** What a gateway of these modules serves: its registry and the exception kinds its modules declare. */
export interface ServedGateway {
  readonly registry: ToolRegistry;
  readonly exceptionKinds: ExceptionCatalog;
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
  return (await loadServedGateway(modules, options)).registry;
}

/** The registry loadServedRegistry builds, with the exception kinds the modules declare, as createApp catalogs them. */
export async function loadServedGateway(
  modules: readonly ToolgateModule[],
  options: ServedContractOptions = {},
): Promise<ServedGateway> {
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
  let exceptionKinds: ExceptionCatalog;
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
    exceptionKinds = new ExceptionCatalog(instances.flatMap((m) => m.exceptions ?? []));
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  await close();
  return { registry, exceptionKinds };
}

/** The contract of what a gateway of these modules serves: its tools, policy set and exception kinds. */
export async function buildServedContract(
  modules: readonly ToolgateModule[],
  options: ServedContractOptions = {},
): Promise<ContractDocument> {
  const policySet = contractPolicySet(options.policyDir);
  const { registry, exceptionKinds } = await loadServedGateway(modules, options);
  return buildContractDocument(registry, {
    ...(options.implementation ? { implementation: options.implementation } : {}),
    policySet,
    exceptionKinds: exceptionKinds.all(),
  });
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
