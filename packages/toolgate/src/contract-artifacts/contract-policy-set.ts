import { loadPolicyDirectory } from '../policy/policy-directory.ts';
import { PolicySetError } from '../policy/policy-problem.ts';
import type { ContractPolicySet } from './contract-document.ts';

/**
 * The policy set of a Cedar policy directory as a contract names it: the `policy_version` the gateway
 * serving it records, and the SHA-256 of each of its files. Null without a directory; a directory that
 * does not load throws PolicySetError, as `serve` refuses it.
 */
export function contractPolicySet(dir: string | undefined): ContractPolicySet | null {
  if (dir === undefined) return null;
  const loaded = loadPolicyDirectory(dir);
  if (!loaded.ok) throw new PolicySetError(dir, loaded.problems);
  return {
    policy_version: loaded.directory.version,
    files: loaded.directory.files.map((file) => ({ path: file.name, sha256: file.sha256 })),
  };
}
