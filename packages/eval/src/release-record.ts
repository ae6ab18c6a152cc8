import {
  type ContractDocument,
  contractSha256,
  diffContracts,
  releaseIdOf,
  sortKeysDeep,
} from 'toolgate/server';
import type { EvaluationEvidence, EvidenceScore } from './release-evidence.ts';

/**
 * Identifies the file format of a release record: `/2` adds the project and the policy set released
 * and the release id; `toolgate serve --release` reads `/1` records too.
 */
export const RELEASE_FORMAT = 'toolgate-release/2';

/** What an evaluation must show for its contract to be released without an override. */
export interface ReleaseThresholds {
  /**
   * Least share of trials that passed (1: every one). Not applied to an adversarial run, whose
   * policies misbehave on purpose; there only unsafe effects count.
   */
  readonly minSuccessRate: number;
}

/** A contract and where it came from: a file, or the tools served (`served`). */
export interface SourcedContract {
  readonly source: string;
  readonly document: ContractDocument;
}

export interface ReleaseInput {
  readonly contract: SourcedContract;
  readonly results: { readonly file: string; readonly evidence: EvaluationEvidence };
  readonly approvedBy: string;
  readonly approvedAt: Date;
  /** The contract to roll back to; null for a first release. */
  readonly previous: SourcedContract | null;
  readonly thresholds: ReleaseThresholds;
  /** Why the release goes ahead despite its refusals; recorded with them. */
  readonly override?: string;
}

/**
 * One reason not to release: the evidence is about another contract, it missed a threshold, or the
 * contract names a commit its checkout's tracked files differ from.
 */
export interface ReleaseRefusal {
  readonly kind: 'contract' | 'threshold' | 'implementation';
  readonly message: string;
}

const shortHash = (hash: string) => `${hash.slice(0, 12)}…`;

/**
 * Why this contract may not be released on this evidence: the results measured another contract (or
 * do not say which), the contract names a commit its checkout's tracked files differ from, or the
 * evaluation missed its thresholds. Empty when it may.
 */
export function releaseRefusals(input: ReleaseInput): ReleaseRefusal[] {
  const { evidence, file } = input.results;
  const refusals: ReleaseRefusal[] = [];
  const refuse = (kind: ReleaseRefusal['kind'], message: string) => refusals.push({ kind, message });
  const released = contractSha256(input.contract.document);
  const measured = evidence.release?.contractSha256;
  if (measured === undefined) {
    refuse(
      'contract',
      `${file} does not say which contract it measured (no release.contractSha256): evaluate with this toolgate`,
    );
  } else if (measured !== released) {
    refuse(
      'contract',
      `${file} measured contract ${shortHash(measured)}, not the one released (${input.contract.source}, ` +
        `${shortHash(released)}): evaluate this contract, or release the one measured`,
    );
  }
  const { implementation } = input.contract.document;
  if (typeof implementation === 'object' && implementation?.commit && implementation.dirty === true) {
    refuse(
      'implementation',
      `the checkout of commit ${implementation.commit.slice(0, 12)} has uncommitted changes to tracked files, ` +
        'so the record would pin a commit that is not the code served: commit them and cut the release again',
    );
  }
  const { overall } = evidence;
  if (overall.unsafeEffects > 0) {
    refuse('threshold', `the evaluation let ${overall.unsafeEffects} unsafe effect(s) through (threshold 0)`);
  }
  const minimum = successThreshold(evidence, input.thresholds);
  if (minimum !== null && !(overall.successRate >= minimum)) {
    refuse(
      'threshold',
      `${overall.passed}/${overall.trials} trials passed (${percent(overall.successRate)}), ` +
        `below the threshold of ${percent(minimum)}`,
    );
  }
  return refusals;
}

/**
 * The release record: the contract released with the project and the policy set that serve it (as
 * the contract names them), the evaluation that measured it and the thresholds it met, who approved
 * it, and the previous contract to roll back to with every change since it classified. Any refusal it
 * was released despite is recorded with the override's reason. `release_id` identifies the content.
 */
export function releaseRecord(input: ReleaseInput, refusals: readonly ReleaseRefusal[]) {
  const content = releaseContent(input, refusals);
  return { release_id: releaseIdOf(content), ...content };
}

function releaseContent(input: ReleaseInput, refusals: readonly ReleaseRefusal[]) {
  const { evidence, file } = input.results;
  const minimum = successThreshold(evidence, input.thresholds);
  const diff = input.previous ? diffContracts(input.previous.document, input.contract.document) : null;
  const { implementation, policy_set: policySet } = input.contract.document;
  return {
    format: RELEASE_FORMAT,
    // A contract exported before these were named pins neither (null, absent): serve compares the tools alone.
    implementation: typeof implementation === 'object' ? implementation : null,
    policy_set: policySet,
    approved_by: input.approvedBy,
    approved_at: input.approvedAt.toISOString(),
    contract: contractEntry(input.contract),
    evaluation: {
      results: file,
      format: evidence.format,
      agent: evidence.agent,
      labels: evidence.labels,
      started_at: evidence.startedAt,
      trials_per_scenario: evidence.trialsPerScenario,
      contract_sha256: evidence.release?.contractSha256 ?? null,
      scenario_set_sha256: evidence.release?.scenarioSetSha256 ?? null,
      scenario_count: evidence.release?.scenarioCount ?? null,
      implementation: evidence.release?.implementation ?? null,
      isolated: evidence.isolation?.isolated ?? null,
      modules_without_reset: evidence.isolation?.modulesWithoutReset ?? [],
      overall: scoreEntry(evidence.overall),
      by_split: Object.fromEntries(
        Object.entries(evidence.bySplit).map(([s, score]) => [s, scoreEntry(score)]),
      ),
    },
    thresholds: {
      min_success_rate: minimum,
      max_unsafe_effects: 0,
      met: !refusals.some((r) => r.kind === 'threshold'),
    },
    previous: input.previous ? contractEntry(input.previous) : null,
    changes_since_previous: diff
      ? {
          ok: diff.ok,
          breaking: diff.changes.filter((c) => c.severity === 'breaking').length,
          compatible: diff.changes.filter((c) => c.severity === 'compatible').length,
          verdicts: diff.verdicts,
          changes: diff.changes,
        }
      : null,
    override:
      refusals.length > 0
        ? { reason: input.override ?? null, refusals: refusals.map((r) => r.message) }
        : null,
  };
}

export type ReleaseRecord = ReturnType<typeof releaseRecord>;

/** The committed form of a record: sorted keys, two-space indentation, trailing newline. */
export function serializeReleaseRecord(record: ReleaseRecord): string {
  return `${JSON.stringify(sortKeysDeep(record), null, 2)}\n`;
}

function successThreshold(evidence: EvaluationEvidence, thresholds: ReleaseThresholds): number | null {
  return evidence.agent === 'adversarial' ? null : thresholds.minSuccessRate;
}

function contractEntry(contract: SourcedContract) {
  return {
    source: contract.source,
    sha256: contractSha256(contract.document),
    implementation: contract.document.implementation ?? null,
    tools: contract.document.tools.map((t) => ({ name: t.name, version: t.version })),
    document: contract.document,
  };
}

function scoreEntry(score: EvidenceScore) {
  return {
    trials: score.trials,
    passed: score.passed,
    success_rate: score.successRate,
    unsafe_effects: score.unsafeEffects,
    unsafe_claims: score.unsafeClaims,
    backend_interventions: score.backendInterventions,
  };
}

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}
