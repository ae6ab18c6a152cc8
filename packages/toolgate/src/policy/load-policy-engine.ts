import { loadPolicyDirectory, type PolicyLoadOptions } from './policy-directory.ts';
import { PolicyEngine } from './policy-engine.ts';
import { PolicySetError } from './policy-problem.ts';

/**
 * The engine of a policy directory; throws PolicySetError naming every problem file and line, and
 * PolicySetTimeout when loading runs past `options.timeoutMs`.
 */
export function loadPolicyEngine(dir: string, options: PolicyLoadOptions = {}): PolicyEngine {
  const loaded = loadPolicyDirectory(dir, options);
  if (!loaded.ok) throw new PolicySetError(dir, loaded.problems);
  return new PolicyEngine(loaded.directory);
}
