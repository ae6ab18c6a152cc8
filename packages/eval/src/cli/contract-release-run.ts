import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ExtensionCommandContext } from 'toolgate';
import { readEvaluationEvidence } from '../release-evidence.ts';
import {
  type ReleaseInput,
  releaseRecord,
  releaseRefusals,
  serializeReleaseRecord,
} from '../release-record.ts';

export interface ReleaseFlags {
  readonly results: string;
  readonly approvedBy: string;
  readonly out: string;
  readonly contract?: string;
  readonly previous?: string;
  readonly config?: string;
  readonly minSuccessRate: string;
  readonly override?: string;
}

/** Exit status of a refused release, as of any input the command cannot act on. */
const REFUSED = 2;

/**
 * `toolgate contract release`: writes the release record, or refuses (exit 2, naming every reason,
 * writing nothing) when the results measured another contract or missed a threshold and no
 * `--override REASON` says why it goes ahead anyway. Unreadable inputs throw (the CLI exits 2).
 */
export async function runContractRelease(
  flags: ReleaseFlags,
  context: ExtensionCommandContext,
): Promise<number> {
  const approvedBy = flags.approvedBy.trim();
  if (approvedBy === '') throw new Error('--approved-by: name who approved the release');
  const minSuccessRate = Number(flags.minSuccessRate);
  if (!(minSuccessRate >= 0 && minSuccessRate <= 1)) {
    throw new Error(`--min-success-rate ${flags.minSuccessRate}: must be a number from 0 to 1`);
  }
  if (flags.override !== undefined && flags.override.trim() === '') {
    throw new Error('--override: give the reason the release goes ahead');
  }
  // A record is history: a second release under the same name is a mistake, not an update.
  if (existsSync(flags.out))
    throw new Error(`${flags.out} already exists; a release record is not rewritten`);
  const input: ReleaseInput = {
    contract: {
      source: flags.contract ?? 'served',
      document: await context.loadContract(flags.contract, flags.config),
    },
    results: readEvaluationEvidence(flags.results),
    approvedBy,
    approvedAt: new Date(),
    previous: flags.previous
      ? { source: flags.previous, document: await context.loadContract(flags.previous, flags.config) }
      : null,
    thresholds: { minSuccessRate },
    ...(flags.override === undefined ? {} : { override: flags.override.trim() }),
  };
  const refusals = releaseRefusals(input);
  if (refusals.length > 0 && input.override === undefined) {
    process.stderr.write(
      `toolgate contract release: refused, nothing written:\n${refusals.map((r) => `  - ${r.message}\n`).join('')}` +
        'toolgate contract release: --override REASON releases anyway and records the reason with these\n',
    );
    return REFUSED;
  }
  const record = releaseRecord(input, refusals);
  mkdirSync(dirname(flags.out), { recursive: true });
  writeFileSync(flags.out, serializeReleaseRecord(record), { flag: 'wx' });
  for (const refusal of refusals) {
    process.stderr.write(`toolgate contract release: released despite: ${refusal.message}\n`);
  }
  const changes = record.changes_since_previous;
  process.stdout.write(
    `${flags.out}: release ${record.release_id}, contract ${record.contract.sha256.slice(0, 12)} approved by ${approvedBy}` +
      (changes
        ? `; since ${flags.previous}: ${changes.breaking} breaking, ${changes.compatible} compatible change(s)`
        : '; no previous contract') +
      '\n',
  );
  return 0;
}
