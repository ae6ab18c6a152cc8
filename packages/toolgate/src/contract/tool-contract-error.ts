/** One broken rule of a tool contract, named so a config author can find and fix it. */
export interface ToolContractProblem {
  readonly tool: string;
  /** A stable rule id, e.g. "closed-input" or "reconcile". */
  readonly rule: string;
  readonly message: string;
}

/** A programmer error: a tool contract that breaks the gateway's rules. Thrown before anything is served. */
export class ToolContractError extends Error {
  readonly problems: readonly ToolContractProblem[];

  constructor(problems: readonly ToolContractProblem[]) {
    super(problems.map((p) => `tool ${p.tool}: ${p.message} [${p.rule}]`).join('\n'));
    this.name = 'ToolContractError';
    this.problems = problems;
  }
}

let collector: ToolContractProblem[] | null = null;

/**
 * Runs `work` (typically importing a config file) with contract problems collected instead of thrown,
 * so that one run names every broken tool, not only the first. Not re-entrant.
 */
export async function collectContractProblems<T>(
  work: () => Promise<T>,
): Promise<{ value: T; problems: ToolContractProblem[] }> {
  const problems: ToolContractProblem[] = [];
  collector = problems;
  try {
    return { value: await work(), problems };
  } finally {
    collector = null;
  }
}

/** Reports broken rules: to the active collector when there is one, otherwise by throwing. */
export function reportContractProblems(problems: readonly ToolContractProblem[]): void {
  if (problems.length === 0) return;
  if (collector) collector.push(...problems);
  else throw new ToolContractError(problems);
}
