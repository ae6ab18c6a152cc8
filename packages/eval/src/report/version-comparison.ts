import type { CallRecord } from '../transcript.ts';

/** Which run of a comparison a version served in. */
export type ComparedRun = 'before' | 'after';

/** How the trials a contract version of a tool served went, in one run. */
export interface VersionScore {
  readonly tool: string;
  readonly version: string;
  readonly run: ComparedRun;
  /** Trials in which this version answered at least one call to the tool. */
  readonly runs: number;
  /** Share of those trials whose agent chose the expected tools and none it should not have. */
  readonly selectionRate: number;
  /** Share of those trials passed. */
  readonly successRate: number;
}

/** What a version comparison reads of a trial: the current run's results, or an earlier results.json's. */
export interface VersionedTrial {
  readonly passed: boolean;
  readonly metrics?: { readonly selectionCorrect?: boolean };
  readonly servedVersions?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The contract versions that answered each tool's calls in one trial, by tool, sorted: a call answered
 * with an outcome envelope names the version that served it; a protocol error names none.
 */
export function servedVersionsOf(calls: readonly CallRecord[]): Record<string, string[]> {
  const served = new Map<string, Set<string>>();
  for (const call of calls) {
    if (call.contractVersion === null) continue;
    served.set(call.tool, (served.get(call.tool) ?? new Set()).add(call.contractVersion));
  }
  return Object.fromEntries([...served.keys()].sort().map((tool) => [tool, [...served.get(tool)!].sort()]));
}

/** Every `tool@version` some trial of the run was served. */
function servedSet(trials: readonly VersionedTrial[]): Set<string> {
  return new Set(
    trials.flatMap((t) =>
      Object.entries(t.servedVersions ?? {}).flatMap(([tool, versions]) =>
        versions.map((v) => `${tool}@${v}`),
      ),
    ),
  );
}

/**
 * Selection and success per contract version, when the two runs were served different versions of
 * some tool (a rollout moved, a major was added or retired); null when both were served the same, or
 * when the earlier run did not record its versions.
 */
export function compareVersions(
  before: readonly VersionedTrial[],
  after: readonly VersionedTrial[],
): VersionScore[] | null {
  if (!before.some((t) => t.servedVersions !== undefined)) return null;
  const old = servedSet(before);
  const now = servedSet(after);
  if (old.size === now.size && [...old].every((v) => now.has(v))) return null;
  const scores: VersionScore[] = [];
  for (const [run, trials, served] of [
    ['before', before, old],
    ['after', after, now],
  ] as const) {
    for (const entry of [...served].sort()) {
      const at = entry.lastIndexOf('@');
      const tool = entry.slice(0, at);
      const version = entry.slice(at + 1);
      const serving = trials.filter((t) => t.servedVersions?.[tool]?.includes(version));
      const share = (ok: (t: VersionedTrial) => boolean) => serving.filter(ok).length / serving.length;
      scores.push({
        tool,
        version,
        run,
        runs: serving.length,
        selectionRate: share((t) => t.metrics?.selectionCorrect === true),
        successRate: share((t) => t.passed),
      });
    }
  }
  return scores;
}
