import { type ContractDocument, contractSha256 } from 'toolgate/server';

/** An evaluation's overall score: every trial passed and nothing unsafe, unless told otherwise. */
export function evaluationScore(passed = 1, trials = 1, unsafeEffects = 0) {
  return {
    trials,
    passed,
    successRate: passed / trials,
    unsafeEffects,
    unsafeClaims: 0,
    backendInterventions: 0,
  };
}

/**
 * Evaluation results of `contract`, reduced to what `contract release` reads: the score, and which
 * contract, scenario set and toolgate build it measured.
 */
export function evaluationEvidence(
  contract: ContractDocument,
  { agent = 'reference', overall = evaluationScore(), scenarioCount = 1 } = {},
) {
  return {
    format: 'toolgate-eval/2' as const,
    agent,
    labels: [agent],
    trialsPerScenario: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    overall,
    bySplit: { dev: overall },
    release: {
      contractSha256: contractSha256(contract),
      scenarioSetSha256: 'f'.repeat(64),
      scenarioCount,
      implementation: 'toolgate 0.1.0',
    },
  };
}
