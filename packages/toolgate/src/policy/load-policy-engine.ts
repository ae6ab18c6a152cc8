import { loadPolicyDirectory } from './policy-directory.ts';
import { PolicyEngine } from './policy-engine.ts';
import { PolicySetError } from './policy-problem.ts';

/** The engine of a policy directory; throws PolicySetError naming every problem file and line. */
export function loadPolicyEngine(dir: string): PolicyEngine {
  const loaded = loadPolicyDirectory(dir);
  if (!loaded.ok) throw new PolicySetError(dir, loaded.problems);
  return new PolicyEngine(loaded.directory);
}
