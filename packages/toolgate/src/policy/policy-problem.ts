/** One thing wrong with a policy directory, located in its file. */
export interface PolicyProblem {
  /** The file's name inside the policy directory. */
  readonly file: string;
  /**
   * 1-based line and column of the problem (1:1 when the problem is about the file as a whole; 0:0 when
   * it is about the directory, which has no lines).
   */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** `file:line:column: message`, as editors and CI logs link it; a directory's problem has no position. */
export function describePolicyProblem(problem: PolicyProblem): string {
  if (problem.line === 0) return `${problem.file}: ${problem.message}`;
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.message}`;
}

/** 1-based line and column of a character offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** Raised when a server is asked to start with a policy set that does not load; names every problem. */
export class PolicySetError extends Error {
  readonly problems: readonly PolicyProblem[];

  constructor(dir: string, problems: readonly PolicyProblem[]) {
    super(`policy set ${dir} does not load:\n${problems.map(describePolicyProblem).join('\n')}`);
    this.name = 'PolicySetError';
    this.problems = problems;
  }
}
