import { dirname, resolve } from 'node:path';
import { resolveCommandConfig } from '../config/discover-config.ts';
import { SERVE_SETTINGS } from '../config/serve-settings.ts';
import type { ContractDocument, ContractImplementation } from '../contract-artifacts/contract-document.ts';
import { projectImplementation } from '../contract-artifacts/project-implementation.ts';
import { buildServedContract, type ServedContractOptions } from '../contract-artifacts/served-contract.ts';
import { variable } from './serve-setting-reader.ts';
import { type ServedModules, servedModules } from './served-modules.ts';

/** How a command names what is served besides the tools. */
export interface ServedContractLoading extends Pick<ServedContractOptions, 'retentionSeconds'> {
  /** The policy directory named on the command line (`--policy`); else as `serve` finds it. */
  readonly policy?: string;
  /** Name the git commit and whether the checkout has changes (default true). */
  readonly commit?: boolean;
}

/**
 * The contract of what `serve` would serve from the same place: --config, TOOLGATE_CONFIG,
 * or ./toolgate.config.* (without one, exit 2 saying how to write one), with the policy directory of `--policy`,
 * TOOLGATE_POLICY or the config, and the project of the package.json beside the config. The config is looked for only when the contract is needed, so a command
 * given contract files works anywhere.
 */
export function servedContractLoader(
  command: string,
  configFlag: string | undefined,
  options: ServedContractLoading = {},
): () => Promise<ContractDocument> {
  return async () => {
    const file = resolveCommandConfig(command, configFlag);
    const served = await servedModules(file, command);
    const policy = options.policy ?? variable(SERVE_SETTINGS.policy.env) ?? served.settings.policy;
    return buildServedContract(served.modules, {
      ...(options.retentionSeconds === undefined ? {} : { retentionSeconds: options.retentionSeconds }),
      implementation: servedImplementation(served, { commit: options.commit ?? true }),
      ...(policy === undefined ? {} : { policyDir: resolve(policy) }),
    });
  };
}

/** The project serving these modules: the config's folder. */
export function servedImplementation(
  served: ServedModules,
  options: { commit: boolean },
): ContractImplementation {
  return projectImplementation(dirname(served.file), options);
}
