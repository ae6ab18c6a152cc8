import { readReleaseFile, releaseDifferences } from '../contract-artifacts/release-pin.ts';
import { buildServedContract } from '../contract-artifacts/served-contract.ts';
import type { ServeConfig } from './serve-options.ts';
import { servedImplementation } from './served-contract-loader.ts';
import type { ServedModules } from './served-modules.ts';

/**
 * `serve --release FILE`: the release id when what this gateway would serve is what the record
 * released: the contract it would export (these modules, this retention), the project beside the
 * config (its commit too when the record names one) and the policy set. Otherwise it ends the process
 * with exit 2 before any database is opened, naming every difference on stderr. Null without --release.
 */
export async function pinnedReleaseId(config: ServeConfig, served: ServedModules): Promise<string | null> {
  if (config.releaseFile === undefined) return null;
  let differences: string[];
  let releaseId: string;
  try {
    const release = readReleaseFile(config.releaseFile);
    releaseId = release.releaseId;
    const document = await buildServedContract(served.modules, {
      ...(config.retentionSeconds === undefined ? {} : { retentionSeconds: config.retentionSeconds }),
      implementation: servedImplementation(served, { commit: Boolean(release.implementation?.commit) }),
      ...(config.policyDir === undefined ? {} : { policyDir: config.policyDir }),
    });
    differences = releaseDifferences(release, document);
  } catch (error) {
    process.stderr.write(`toolgate serve: --release ${config.releaseFile}: ${(error as Error).message}\n`);
    return process.exit(2);
  }
  if (differences.length === 0) return releaseId;
  process.stderr.write(
    `toolgate serve: refusing to start: this gateway does not serve release ${releaseId} (${config.releaseFile}):\n` +
      differences.map((d) => `  release ${releaseId}: ${d}\n`).join('') +
      'toolgate serve: serve the files and commit that release was cut from, or cut a release of these\n',
  );
  return process.exit(2);
}
