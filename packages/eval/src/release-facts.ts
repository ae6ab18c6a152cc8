import { canonicalJson, sha256Hex } from 'toolgate';
import { buildContractDocument, contractSha256, FRAMEWORK_BUILD, type ToolRegistry } from 'toolgate/server';
import type { LoadedScenario } from './scenario-schema.ts';

/** What a result was measured against, so a release can name the contract and scenarios it passed. */
export interface ReleaseFacts {
  /**
   * sha256 of the served contract as `toolgate contract export` writes it, less its `implementation`
   * line (contractSha256): it identifies the tools, so a new toolgate build serving them keeps it.
   */
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
    contractSha256: contractSha256(buildContractDocument(registry)),
    scenarioSetSha256: sha256Hex(canonicalJson(content)),
    scenarioCount: scenarios.length,
    implementation: FRAMEWORK_BUILD,
  };
}
