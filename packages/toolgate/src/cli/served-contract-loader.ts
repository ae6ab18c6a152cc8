import { resolveCommandConfig } from '../config/discover-config.ts';
import type { ContractDocument } from '../contract-artifacts/contract-document.ts';
import { buildServedContract, type ServedContractOptions } from '../contract-artifacts/served-contract.ts';
import { servedModules } from './served-modules.ts';

const ACTIVITY = {
  lint: 'checking',
  'contract export': 'exporting',
  'contract diff': 'comparing with',
  'contract docs': 'documenting',
  'contract release': 'releasing',
} as const;

/**
 * The contract of what `serve` would serve from the same place: --config, TOOLGATE_CONFIG,
 * ./toolgate.config.*, or the demo (said on stderr). The config is looked for only when the contract
 * is needed, so a command given contract files works anywhere.
 */
export function servedContractLoader(
  command: keyof typeof ACTIVITY,
  configFlag: string | undefined,
  options: ServedContractOptions = {},
): () => Promise<ContractDocument> {
  return async () => {
    const file = resolveCommandConfig(command, configFlag, { activity: ACTIVITY[command] });
    return buildServedContract((await servedModules(file, command)).modules, options);
  };
}
