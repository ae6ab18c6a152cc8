import packageJson from '../../package.json' with { type: 'json' };
import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import { buildContractDocument, serializeContract } from '../contract-artifacts/contract-export.ts';
import type { LoadedScenario } from './scenario-schema.ts';

/** What a result was measured against, so a release can name the contract and scenarios it passed. */
export interface ReleaseFacts {
  /** sha256 of the served contract exactly as `toolgate contract export` writes it. */
  readonly contractSha256: string;
  /** sha256 of the selected scenarios' content (ids, requests, expectations, reference), by id. */
  readonly scenarioSetSha256: string;
  readonly scenarioCount: number;
  /** The toolgate implementation the gateway ran. */
  readonly implementation: string;
}

export function releaseFacts(registry: ToolRegistry, scenarios: readonly LoadedScenario[]): ReleaseFacts {
  // Where a file sits does not change what it asks: the content is hashed, not the path.
  const content = [...scenarios]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ file: _file, ...scenario }) => scenario);
  return {
    contractSha256: sha256Hex(serializeContract(buildContractDocument(registry))),
    scenarioSetSha256: sha256Hex(canonicalJson(content)),
    scenarioCount: scenarios.length,
    implementation: `toolgate ${packageJson.version}`,
  };
}
