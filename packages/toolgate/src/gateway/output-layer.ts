import type { OutcomeStatus } from '../contract/envelope.ts';
import type { OperationMode } from '../contract/fingerprint.ts';
import type { ToolOutcome } from '../contract/outcome.ts';
import {
  answeredStatus,
  outcomeContractProblems,
  refusalContradiction,
} from '../contract/outcome-contract.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

/**
 * The output layer's verdict on what a handler returned: sound, with the status it is answered with and
 * the result as the output schema parsed it; or a breach of the published contract, with its problems,
 * and whether it is a refusal whose status its code cannot have (nothing changed either way).
 */
export type OutputVerdict =
  | { readonly sound: true; readonly status: OutcomeStatus; readonly result: unknown }
  | { readonly sound: false; readonly problems: readonly string[]; readonly refusal: boolean };

/**
 * The output layer. The handler's outcome must match the published contract (contract/outcome-contract.ts):
 * its result the output schema, its code one the tool declared, its status one the tool's kind and mode allow.
 */
export function outputVerdict(
  tool: RegisteredTool,
  outcome: ToolOutcome<unknown>,
  mode: OperationMode,
): OutputVerdict {
  const { problems, result } = outcomeContractProblems(tool, outcome, mode);
  if (problems.length > 0) {
    return { sound: false, problems, refusal: refusalContradiction(tool, outcome) !== null };
  }
  return { sound: true, status: answeredStatus(tool, outcome), result };
}
