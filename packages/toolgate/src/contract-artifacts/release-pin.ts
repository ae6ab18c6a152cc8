import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';
import {
  type ContractDocument,
  type ContractImplementation,
  type ContractPolicySet,
  contractDocumentSchema,
  contractImplementationSchema,
  contractPolicySetSchema,
} from './contract-document.ts';
import { contractSha256 } from './contract-export.ts';

/** The release record formats a gateway can be pinned to: `/2` names the project and the policy set too. */
export const RELEASE_FORMATS = ['toolgate-release/1', 'toolgate-release/2'] as const;

/** The part of a release record `serve --release` reads; everything else is left as it is. */
const releaseFileSchema = z.looseObject({
  format: z.enum(RELEASE_FORMATS),
  release_id: z.string().optional(),
  contract: z.looseObject({ sha256: z.string(), document: contractDocumentSchema }),
  implementation: contractImplementationSchema.nullable().optional(),
  policy_set: contractPolicySetSchema.nullable().optional(),
});

/** A release as a gateway is pinned to it. */
export interface PinnedRelease {
  readonly file: string;
  readonly releaseId: string;
  readonly contractSha256: string;
  readonly contract: ContractDocument;
  /** The project released; null when the record does not name one (`toolgate-release/1`). */
  readonly implementation: ContractImplementation | null;
  /** The policy set released (null: none); undefined when the record does not say (`/1`, or an older contract). */
  readonly policySet: ContractPolicySet | null | undefined;
}

/**
 * A release record's id: `rel_` and the first 16 hex characters of the SHA-256 of the RFC 8785 JSON of
 * its content without the id itself. Any change to the record, however its keys are laid out, changes it.
 */
export function releaseIdOf(record: Record<string, unknown>): string {
  const { release_id: _releaseId, ...content } = record;
  return `rel_${sha256Hex(canonicalJson(content)).slice(0, 16)}`;
}

/** Reads a release record of either format; throws naming the file and the first problems. */
export function readReleaseFile(file: string): PinnedRelease {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not a readable release record: ${(error as Error).message}`);
  }
  const result = releaseFileSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues
      .slice(0, 5)
      .map((issue) => `/${issue.path.join('/')}: ${issue.message}`)
      .join('; ');
    throw new Error(`${file} is not a toolgate release record: ${problems}`);
  }
  const record = result.data;
  const releaseId = releaseIdOf(parsed as Record<string, unknown>);
  if (record.format === 'toolgate-release/2' && record.release_id !== releaseId) {
    throw new Error(
      `${file}: release_id ${record.release_id ?? '(none)'} is not the record's (${releaseId}): the record was changed after it was cut`,
    );
  }
  return {
    file,
    releaseId,
    contractSha256: record.contract.sha256,
    contract: record.contract.document,
    implementation: record.implementation ?? null,
    policySet: record.policy_set,
  };
}

const short = (hash: string) => hash.slice(0, 12);

/**
 * Every way what a gateway would serve (its contract, as `contract export` writes it) differs from
 * the release it is pinned to: the contract hash, with the tools added, removed or changed; the
 * project's name and version, and its commit when the record names one; the policy set's version and
 * each file. Empty when they agree.
 */
export function releaseDifferences(release: PinnedRelease, served: ContractDocument): string[] {
  const differences: string[] = [];
  const servedSha = contractSha256(served);
  if (servedSha !== release.contractSha256) {
    differences.push(
      `contract differs: record ${short(release.contractSha256)}, served ${short(servedSha)}`,
      ...toolDifferences(release.contract, served),
    );
  }
  differences.push(...governanceDifferences(release.contract, served));
  differences.push(...implementationDifferences(release.implementation, served.implementation));
  if (release.policySet !== undefined) {
    differences.push(...policyDifferences(release.policySet, served.policy_set ?? null));
  }
  return differences;
}

/** A tool as a release names it: its name, and its major when one contract serves two of the name. */
function toolKeys(document: ContractDocument): Map<string, string> {
  const counts = new Map<string, number>();
  for (const tool of document.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  return new Map(
    document.tools.map((tool) => [
      (counts.get(tool.name) ?? 0) > 1 ? `${tool.name}@${Number.parseInt(tool.version, 10)}` : tool.name,
      canonicalJson(tool),
    ]),
  );
}

/**
 * The governance modules declare, as the record's contract lists it (records of contracts that list
 * none are not compared): exception kinds added, removed or changed, and approver scopes.
 */
function governanceDifferences(recorded: ContractDocument, served: ContractDocument): string[] {
  /** Each entry by its key, as canonical JSON (none listed: empty). */
  const keyed = <T>(entries: readonly T[] | undefined, keyOf: (entry: T) => string) =>
    new Map((entries ?? []).map((entry) => [keyOf(entry), canonicalJson(entry)]));
  const lines = [
    ...(recorded.exceptions === undefined
      ? []
      : changes(
          'exception kinds',
          keyed(recorded.exceptions, (k) => k.kind),
          keyed(served.exceptions, (k) => k.kind),
        )),
    ...(recorded.approver_scopes === undefined
      ? []
      : changes(
          'approver scopes',
          keyed(recorded.approver_scopes, (a) => a.scope),
          keyed(served.approver_scopes, (a) => a.scope),
        )),
  ];
  return lines.map((line) => `governance differs: ${line}`);
}

/** What was added, removed and changed between two keyed sets, one line each that is not empty. */
function changes(what: string, before: Map<string, string>, after: Map<string, string>): string[] {
  const named = (how: string, keys: string[]) =>
    keys.length > 0 ? [`${what} ${how}: ${keys.join(', ')}`] : [];
  return [
    ...named(
      'added',
      [...after.keys()].filter((key) => !before.has(key)),
    ),
    ...named(
      'removed',
      [...before.keys()].filter((key) => !after.has(key)),
    ),
    ...named(
      'changed',
      [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key)),
    ),
  ];
}

function toolDifferences(recorded: ContractDocument, served: ContractDocument): string[] {
  return changes('tools', toolKeys(recorded), toolKeys(served));
}

function implementationDifferences(
  recorded: ContractImplementation | null,
  served: ContractDocument['implementation'],
): string[] {
  if (recorded === null) return [];
  const now = typeof served === 'object' ? served : null;
  const project = (i: ContractImplementation | null) =>
    i ? `${i.name ?? '(no name)'}@${i.version ?? '(no version)'}` : '(unknown)';
  const differences: string[] = [];
  if (recorded.name !== (now?.name ?? null) || recorded.version !== (now?.version ?? null)) {
    differences.push(`implementation differs: record ${project(recorded)}, served ${project(now)}`);
  }
  if (recorded.commit && recorded.commit !== now?.commit) {
    differences.push(
      `commit differs: record ${short(recorded.commit)}, served ${now?.commit ? short(now.commit) : 'no git checkout'}`,
    );
  } else if (recorded.commit && recorded.dirty === false && now?.dirty === true) {
    // The commit alone does not say what runs once tracked files differ from it.
    differences.push(
      `checkout differs: commit ${short(recorded.commit)} has uncommitted changes to tracked files (git status)`,
    );
  }
  return differences;
}

function policyDifferences(recorded: ContractPolicySet | null, served: ContractPolicySet | null): string[] {
  if (recorded === null && served === null) return [];
  if (recorded === null)
    return [
      `policy set differs: record serves no Cedar policies, served policy_version ${served!.policy_version}`,
    ];
  if (served === null)
    return [`policy set differs: record policy_version ${recorded.policy_version}, served no Cedar policies`];
  if (recorded.policy_version === served.policy_version) return [];
  const before = new Map(recorded.files.map((f) => [f.path, f.sha256]));
  const after = new Map(served.files.map((f) => [f.path, f.sha256]));
  return [
    `policy set differs: record policy_version ${recorded.policy_version}, served ${served.policy_version}`,
    ...[...after.keys()].filter((path) => !before.has(path)).map((path) => `policy file ${path} added`),
    ...[...before.keys()].filter((path) => !after.has(path)).map((path) => `policy file ${path} removed`),
    ...[...after.keys()]
      .filter((path) => before.has(path) && before.get(path) !== after.get(path))
      .map((path) => `policy file ${path} changed`),
  ];
}
