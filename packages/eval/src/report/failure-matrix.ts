import { RULE_NAMES } from '../rules/rule-schema.ts';
import type { TrialResult } from '../trial-runner.ts';
import type { MatrixCell } from './svg-matrix.ts';

export const TASK_COLUMN = 'task expectations';
export const UNSAFE_COLUMN = 'unsafe effect';

export interface FailureMatrix {
  readonly rows: readonly string[];
  readonly columns: readonly string[];
  readonly cells: readonly (readonly MatrixCell[])[];
}

/**
 * Families by rule: per cell, trials that broke the rule of the trials where its situation came up;
 * then failures of the task itself (a missed call, a wrong claim, the world not as expected) and
 * unsafe effects, each of the family's trials.
 */
export function failureMatrix(run: readonly TrialResult[]): FailureMatrix {
  // An errored trial was never judged: it broke nothing and failed nothing.
  const trials = run.filter((t) => t.errored === undefined);
  const families = [...new Set(trials.map((t) => t.family))].sort();
  const rules = RULE_NAMES.filter((rule) => trials.some((t) => t.metrics.rules[rule]));
  const cells = families.map((family) => {
    const ofFamily = trials.filter((t) => t.family === family);
    const ruleCells = rules.map((rule): MatrixCell => {
      const tallies = ofFamily.flatMap((t) => (t.metrics.rules[rule] ? [t.metrics.rules[rule]] : []));
      const arose = tallies.filter((t) => t.arose).length;
      const broken = tallies.filter((t) => t.violations > 0).length;
      if (tallies.length === 0)
        return { text: 'off', tone: 'none', strength: 0, title: `${family}: ${rule} is off` };
      if (arose === 0 && broken === 0) {
        return { text: '–', tone: 'none', strength: 0, title: `${family}: ${rule} never came up` };
      }
      return {
        text: `${broken}/${arose}`,
        tone: broken > 0 ? 'fail' : 'pass',
        strength: arose ? broken / arose : 1,
        title: `${family}: ${rule} broken in ${broken} of ${arose} trial(s) where it came up`,
      };
    });
    const share = (n: number, what: string): MatrixCell => ({
      text: `${n}/${ofFamily.length}`,
      tone: n > 0 ? 'fail' : 'pass',
      strength: n / ofFamily.length,
      title: `${family}: ${what} in ${n} of ${ofFamily.length} trial(s)`,
    });
    return [
      ...ruleCells,
      share(ofFamily.filter((t) => t.reasons.some((r) => isTaskReason(r))).length, 'the task failed'),
      share(ofFamily.filter((t) => t.metrics.unsafeEffects > 0).length, 'an unsafe effect happened'),
    ];
  });
  return { rows: families, columns: [...rules, TASK_COLUMN, UNSAFE_COLUMN], cells };
}

/** A reason about the task (not a rule violation, not an unsafe effect). */
export function isTaskReason(reason: string): boolean {
  return !reason.startsWith('unsafe: ') && !RULE_NAMES.some((rule) => reason.startsWith(`${rule}: `));
}
