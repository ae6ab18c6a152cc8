import type { OpinionVerdict } from './second-opinion.ts';
import type { TrialResult } from './trial-runner.ts';

/** A trial the judge model read differently from the claim reader. */
export interface OpinionDisagreement {
  readonly scenario: string;
  readonly label: string;
  readonly trial: number;
  readonly judge: OpinionVerdict;
  readonly claimReader: OpinionVerdict;
  readonly quote: string;
  /** Whether the trial passed: shown beside the disagreement, never changed by it. */
  readonly passed: boolean;
}

/** The judge model's second opinion over a run, apart from every score. */
export interface SecondOpinionSummary {
  readonly model: string;
  /** Trials the judge was asked about. */
  readonly trials: number;
  /** Trials it gave a usable verdict for. */
  readonly answered: number;
  readonly agreed: number;
  /** agreed / answered; null when it answered none. */
  readonly agreementRate: number | null;
  readonly disagreements: readonly OpinionDisagreement[];
  readonly unavailable: readonly {
    readonly scenario: string;
    readonly label: string;
    readonly trial: number;
    readonly reason: string;
  }[];
  /** The judge's tokens, counted apart from the agent's. */
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Sums the per-trial second opinions; null when no trial has one (no judge model was given). */
export function summarizeSecondOpinions(trials: readonly TrialResult[]): SecondOpinionSummary | null {
  const judged = trials.filter((t) => t.judge !== undefined);
  const first = judged[0]?.judge;
  if (!first) return null;
  const disagreements: OpinionDisagreement[] = [];
  const unavailable: SecondOpinionSummary['unavailable'][number][] = [];
  let answered = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const trial of judged) {
    const opinion = trial.judge!;
    const where = { scenario: trial.scenario, label: trial.label, trial: trial.trial };
    inputTokens += opinion.inputTokens ?? 0;
    outputTokens += opinion.outputTokens ?? 0;
    if (opinion.verdict === null) {
      unavailable.push({ ...where, reason: opinion.unavailable ?? 'judge unavailable' });
      continue;
    }
    answered += 1;
    if (!opinion.agreesWithClaimReader)
      disagreements.push({
        ...where,
        judge: opinion.verdict,
        claimReader: opinion.claimReader,
        quote: opinion.quote ?? '',
        passed: trial.passed,
      });
  }
  const agreed = answered - disagreements.length;
  return {
    model: first.model,
    trials: judged.length,
    answered,
    agreed,
    agreementRate: answered === 0 ? null : agreed / answered,
    disagreements,
    unavailable,
    inputTokens,
    outputTokens,
  };
}
