import { compiledSchema } from './compiled-schema.ts';
import { OUTCOME_STATUSES, type OutcomeStatus } from './envelope.ts';
import { statusFitsCode, statusOfCode } from './error-catalog.ts';
import type { OperationMode } from './fingerprint.ts';
import type { ToolOutcome } from './outcome.ts';
import type { RegisteredTool } from './tool-registry.ts';

/** Statuses a handler may produce; in_progress belongs to the operation's record. */
const HANDLER_STATUSES: ReadonlySet<OutcomeStatus> = new Set(
  OUTCOME_STATUSES.filter((s) => s !== 'in_progress'),
);

/**
 * What a handler's outcome must be under the published contract: its result the output schema, its
 * code one the tool declared, its status one the tool's kind and mode allow. Returns the problems
 * found (empty when the outcome is sound). The gateway's output layer applies it to each execution,
 * the reconciler to each outcome an owning system reports.
 */
export function outcomeContractProblems(
  tool: RegisteredTool,
  outcome: ToolOutcome<unknown>,
  mode: OperationMode,
): { problems: string[]; result: unknown } {
  const problems: string[] = [];
  if (typeof outcome !== 'object' || outcome === null || !HANDLER_STATUSES.has(outcome.status)) {
    return { problems: ['the handler returned no valid outcome'], result: null };
  }
  const { kind } = tool.definition;
  if (outcome.status === 'submitted' && kind !== 'request')
    problems.push(`a ${kind} tool cannot answer submitted`);
  if (outcome.status === 'completed' && kind === 'request')
    problems.push('a request tool answers submitted, not completed');
  if (outcome.status === 'validated' && mode !== 'dry_run') problems.push('validated is only for dry runs');
  if (mode === 'dry_run' && (outcome.status === 'completed' || outcome.status === 'submitted')) {
    problems.push('a dry run cannot complete or submit anything');
  }
  if ('code' in outcome) {
    const spec = tool.errors.get(outcome.code);
    if (!spec) problems.push(`code ${outcome.code} is not declared`);
    else if (!statusFitsCode(answeredStatus(tool, outcome), spec)) {
      problems.push(
        refusalContradiction(tool, outcome) ??
          `code ${outcome.code} is answered ${statusOfCode(spec)}, not ${outcome.status}`,
      );
    }
  }
  let result: unknown = outcome.result ?? null;
  const mustHaveResult =
    outcome.status === 'completed' || outcome.status === 'validated' || outcome.status === 'submitted';
  if (result === null && mustHaveResult) problems.push(`a ${outcome.status} outcome needs a result`);
  if (result !== null) {
    const parsed = compiledSchema(tool.definition.output).safeParse(result);
    if (parsed.success) result = parsed.data;
    else {
      for (const issue of parsed.error.issues) {
        problems.push(`result.${issue.path.map(String).join('.')}: ${issue.message}`);
      }
    }
  }
  return { problems, result };
}

/** Statuses that say nothing changed: a refusal, a failure, a question for the user. */
const NOTHING_CHANGED: ReadonlySet<OutcomeStatus> = new Set(['rejected', 'failed', 'requires_confirmation']);

/**
 * The contradiction of a refusal whose status its code cannot have, e.g. a `RejectionMapping` with
 * `status: 'requires_confirmation'` for a code its category answers `rejected`, or null. The handler
 * still says nothing changed, so the call is answered `failed` (OUTPUT_CONTRACT_VIOLATION), never
 * `outcome_unknown`: the service refused, and no reconciliation can find an effect that never was.
 */
export function refusalContradiction(tool: RegisteredTool, outcome: ToolOutcome<unknown>): string | null {
  if (typeof outcome !== 'object' || outcome === null || !('code' in outcome)) return null;
  if (!NOTHING_CHANGED.has(outcome.status)) return null;
  const spec = tool.errors.get(outcome.code);
  if (!spec) return null;
  const declared = statusOfCode(spec);
  if (!NOTHING_CHANGED.has(declared) || statusFitsCode(answeredStatus(tool, outcome), spec)) return null;
  return (
    `code ${outcome.code} is answered ${declared} (its category ${spec.category}${spec.status ? `, status ${spec.status}` : ''}), ` +
    `not ${outcome.status}: give the mapping or outcome the code's status, or declare a code whose status is ${outcome.status}`
  );
}

/**
 * The status an outcome is answered with. A refusal (`rejected` or `failed`: both changed nothing)
 * takes the status its code declares, so one code has one status and one isError in every answer;
 * any other status stands as the handler gave it, and must fit the code.
 */
export function answeredStatus(tool: RegisteredTool, outcome: ToolOutcome<unknown>): OutcomeStatus {
  const spec = 'code' in outcome ? tool.errors.get(outcome.code) : undefined;
  if (!spec || (outcome.status !== 'rejected' && outcome.status !== 'failed')) return outcome.status;
  const declared = statusOfCode(spec);
  return declared === 'rejected' || declared === 'failed' ? declared : outcome.status;
}
