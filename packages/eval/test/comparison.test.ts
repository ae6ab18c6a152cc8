import { describe, expect, it } from 'vitest';
import { referenceAgent } from '../src/agents/reference-agent.ts';
import { buildReport } from '../src/evaluation.ts';
import { compareRuns, type PriorResults } from '../src/report/comparison.ts';
import { htmlReport } from '../src/report/html-report.ts';
import { markdownReport } from '../src/report/markdown-report.ts';
import type { TrialResult } from '../src/trial-runner.ts';

const trial = (
  scenario: string,
  passed: boolean,
  reasons: string[] = [],
  servedVersions: Record<string, string[]> = { lamps_get: ['1.0.0'] },
): TrialResult => ({
  scenario,
  title: scenario,
  split: 'dev',
  family: 'safe_retry',
  domain: 'lamps',
  agent: 'llm',
  label: 'model',
  trial: 1,
  passed,
  reasons,
  unsafe: [],
  violations: [],
  claim: 'completed',
  expectedClaim: 'completed',
  metrics: {
    calls: 3,
    expectedTools: 1,
    missedTools: 0,
    forbiddenCalls: 0,
    unnecessaryCalls: 0,
    invalidArgumentCalls: 0,
    unsafeEffects: 0,
    unsafeClaims: passed ? 0 : 1,
    duplicateEffects: 0,
    duplicateCalls: 0,
    backendInterventions: 0,
    askedUser: false,
    needsRecovery: true,
    recoveryCalls: 0,
    followedProtocol: passed,
    rules: {},
    resultBytes: 10,
    latencyMs: 1,
    inputTokens: null,
    outputTokens: null,
    faultInjected: true,
    selectionCorrect: true,
  },
  transcript: [],
  servedVersions,
});

const report = (trials: TrialResult[]) =>
  buildReport(trials, { agents: [referenceAgent], trials: 1 }, new Date('2030-01-01T00:00:00Z'), 5);
const asPrior = (r: ReturnType<typeof report>) => JSON.parse(JSON.stringify(r)) as PriorResults;

describe('--compare', () => {
  it('shows per scenario and metric what changed since the earlier run', () => {
    const before = report([trial('a', true), trial('b', false, ['claim_matches_world: claimed completed'])]);
    const after = report([trial('a', false, ['same_key_on_retry: call 3 repeats call 2']), trial('b', true)]);
    const comparison = compareRuns(asPrior(before), 'old/results.json', after);
    expect(comparison.scenarios).toEqual([
      {
        scenario: 'a',
        label: 'model',
        before: '1/1 passed',
        after: '0/1 passed',
        newReasons: ['same_key_on_retry: call 3 repeats call 2'],
        goneReasons: [],
        flipped: [{ trial: 1, before: true, after: false }],
      },
      {
        scenario: 'b',
        label: 'model',
        before: '0/1 passed',
        after: '1/1 passed',
        newReasons: [],
        goneReasons: ['claim_matches_world: claimed completed'],
        flipped: [{ trial: 1, before: false, after: true }],
      },
    ]);
    // Success did not move overall (one up, one down); nothing is reported as changed for it.
    const success = comparison.metrics.find((m) => m.scope === 'all' && m.metric === 'Agent success');
    expect(success).toMatchObject({ before: '50.0%', after: '50.0%', changed: false, better: null });
    const markdown = markdownReport({ ...after, comparison });
    expect(markdown).toContain('## Compared with old/results.json');
    expect(markdown).toContain('- **a** [model] 1/1 passed -> 0/1 passed');
    expect(markdown).toContain('  - gone: claim_matches_world: claimed completed');
  });

  it('pairs two models by scenario and trial number, and lists changed scenarios before metric rows', () => {
    const as = (label: string, t: TrialResult, n: number): TrialResult => ({ ...t, label, trial: n });
    const before = report([as('model-a', trial('a', true), 1), as('model-a', trial('a', true), 2)]);
    const after = report([as('model-b', trial('a', true), 1), as('model-b', trial('a', false, ['x']), 2)]);
    const comparison = compareRuns(asPrior(before), 'a.json', after);
    // One row for the scenario, not one per model label, and the trial that flipped named.
    expect(comparison.scenarios).toHaveLength(1);
    expect(comparison.scenarios[0]).toMatchObject({
      scenario: 'a',
      before: '2/2 passed',
      after: '1/2 passed',
      flipped: [{ trial: 2, before: true, after: false }],
    });
    const markdown = markdownReport({ ...after, comparison });
    expect(markdown).toContain('  - trial 2: passed -> failed');
    expect(markdown.indexOf('- **a**')).toBeLessThan(markdown.indexOf('| Scope | Metric | Before | After |'));
  });

  it('reports selection and success per contract version when the runs were served different versions', () => {
    const v1 = { lamps_get: ['1.0.0'] };
    const v2 = { lamps_get: ['2.0.0'] };
    const before = report([trial('a', true, [], v1), trial('b', true, [], v1)]);
    const unselected = { ...trial('b', false, ['x'], v2) };
    const after = report([
      trial('a', true, [], v1),
      { ...unselected, metrics: { ...unselected.metrics, selectionCorrect: false } },
      trial('c', true, [], v2),
    ]);
    const comparison = compareRuns(asPrior(before), 'old.json', after);
    expect(comparison.versions).toEqual([
      { tool: 'lamps_get', version: '1.0.0', run: 'before', runs: 2, selectionRate: 1, successRate: 1 },
      { tool: 'lamps_get', version: '1.0.0', run: 'after', runs: 1, selectionRate: 1, successRate: 1 },
      { tool: 'lamps_get', version: '2.0.0', run: 'after', runs: 2, selectionRate: 0.5, successRate: 0.5 },
    ]);
    expect(markdownReport({ ...after, comparison })).toContain(
      '| lamps_get | 2.0.0 | after | 2 | 50% | 50% |',
    );
    const html = htmlReport({ ...after, comparison });
    expect(html).toContain('<table id="version-changes">');
    expect(html).toContain(
      '<tr><td>lamps_get</td><td>2.0.0</td><td>after</td><td>2</td><td>50%</td><td>50%</td></tr>',
    );
    expect(
      htmlReport({ ...before, comparison: compareRuns(asPrior(before), 'old.json', before) }),
    ).not.toContain('version-changes');
    // The same versions served in both runs: nothing to tell apart.
    expect(compareRuns(asPrior(before), 'old.json', before).versions).toBeUndefined();
  });

  it('marks better and worse, and reads an older results format without the new scores', () => {
    const after = report([trial('a', true)]);
    const older = asPrior(report([trial('a', false, ['x'])]));
    const v1 = {
      ...older,
      format: 'toolgate-eval/1',
      overall: { trials: 1, passed: 0, successRate: 0, callsPerTask: 3 },
      familyTotals: undefined,
    } as PriorResults;
    const comparison = compareRuns(v1, 'v1.json', after);
    const all = (metric: string) => comparison.metrics.find((m) => m.scope === 'all' && m.metric === metric);
    expect(all('Agent success')).toMatchObject({ before: '0.0%', after: '100.0%', better: true });
    expect(all('Unsafe claims (overclaims)')).toMatchObject({ before: 'n/a', after: '0', better: null });
    expect(all('Calls per task')).toMatchObject({ changed: false });
    expect(comparison.metrics.find((m) => m.scope === 'safe_retry')?.before).toBe('n/a');
  });
});
