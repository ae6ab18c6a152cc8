import type { ContractDocument } from '../contract-artifacts/contract-document.ts';
import { buildServedContract, type ServedContractOptions } from '../contract-artifacts/served-contract.ts';
import { servedModules } from './served-modules.ts';

/** The contract of what `serve` would serve with the same --config: the config's tools, or the demo. */
export function servedContractLoader(
  configFlag: string | undefined,
  options: ServedContractOptions = {},
  command?: string,
): () => Promise<ContractDocument> {
  return async () => buildServedContract((await servedModules(configFlag, command)).modules, options);
}
