import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReleaseInput, releaseRecord, releaseRefusals } from '@toolgate/eval';
import { type ContractDocument, releaseIdOf } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evaluationEvidence, evaluationScore } from '../support/release-evidence.ts';
import { runCommand } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/toolgate.mjs');
const CONFIG = 'packages/eval/test/tools-only/tools-only.config.ts';
/**
 * The commands see no git checkout (git looks no higher than the repository root's folder), so what
 * they cut does not depend on this checkout's state; release-checkout.test.ts pins commits in one.
 */
const toolgate = (...args: string[]) =>
  runCommand(BIN, args, { cwd: ROOT, env: { GIT_CEILING_DIRECTORIES: ROOT } });

interface ReleaseFile {
  format: string;
  release_id: string;
  implementation: { name: string | null; version: string | null; commit?: string | null } | null;
  policy_set: unknown;
  approved_by: string;
  approved_at: string;
  contract: { source: string; sha256: string; implementation: unknown; tools: unknown[]; document: unknown };
  evaluation: {
    results: string;
    agent: string;
    contract_sha256: string;
    scenario_count: number;
    isolated: boolean;
    modules_without_reset: string[];
    overall: { trials: number; passed: number; success_rate: number; unsafe_effects: number };
  };
  thresholds: { min_success_rate: number | null; max_unsafe_effects: number; met: boolean };
  previous: { source: string; sha256: string; document: unknown } | null;
  changes_since_previous: {
    ok: boolean;
    breaking: number;
    compatible: number;
    changes: { tool: string; change: string; severity: string }[];
  } | null;
  override: { reason: string | null; refusals: string[] } | null;
}

/**
 * `toolgate contract release` over real evaluation results of a config of tools only: one passing run
 * and one whose trial failed, both of the contract `contract export --config` writes.
 */
describe('toolgate contract release', () => {
  let dir: string;
  let passing: string;
  let failing: string;
  let contractFile: string;
  let contract: { implementation: unknown; tools: { name: string; input_schema: Record<string, unknown> }[] };
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const release = (out: string, ...args: string[]) =>
    toolgate('contract', 'release', '--config', CONFIG, '--approved-by', 'Dana Ruiz', '--out', out, ...args);
  const recordAt = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ReleaseFile;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-release-'));
    passing = join(dir, 'passing');
    failing = join(dir, 'failing');
    const scenarios = 'packages/eval/test/tools-only';
    const evalRun = (root: string, out: string) =>
      toolgate(
        'eval',
        '--config',
        CONFIG,
        '--scenarios',
        `${scenarios}/${root}`,
        '--out',
        out,
        '--no-progress',
      );
    const runs = [await evalRun('scenarios', passing), await evalRun('fault-scenarios', failing)];
    expect(runs.map((r) => r.code)).toEqual([0, 1]);
    const exported = await toolgate('contract', 'export', '--config', CONFIG);
    expect(exported.code).toBe(0);
    contractFile = file('contract.json', exported.stdout);
    contract = JSON.parse(exported.stdout);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('writes the contract, the evaluation, who approved it and the previous contract with the changes since', async () => {
    // The previous contract let names of up to 80 characters; this one allows 40: breaking, same version.
    const previous = structuredClone(contract);
    const greeting = previous.tools.find((t) => t.name === 'greeting_get')!;
    (greeting.input_schema.properties as { name: { maxLength: number } }).name.maxLength = 80;
    previous.implementation = 'toolgate 0.0.9';
    const previousFile = file('previous.json', JSON.stringify(previous));
    const out = join(dir, 'releases', '1.1.0.json');
    const result = await release(out, '--results', passing, '--previous', previousFile);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const results = JSON.parse(readFileSync(join(passing, 'results.json'), 'utf8')) as {
      release: { contractSha256: string };
    };
    const record = recordAt(out);
    expect(record).toMatchObject({
      format: 'toolgate-release/2',
      release_id: releaseIdOf(record as unknown as Record<string, unknown>),
      // No package.json beside the config, but a git checkout; no policy set: the config names none.
      implementation: { name: null, version: null, commit: null, dirty: null },
      policy_set: null,
      approved_by: 'Dana Ruiz',
      contract: {
        source: 'served',
        sha256: results.release.contractSha256,
        implementation: contract.implementation,
        tools: [
          { name: 'greeting_get', version: '1.0.0' },
          { name: 'operations_get', version: expect.any(String) },
        ],
        document: contract,
      },
      evaluation: {
        results: join(passing, 'results.json'),
        agent: 'reference',
        contract_sha256: results.release.contractSha256,
        scenario_count: 1,
        isolated: false,
        modules_without_reset: ['config'],
        overall: { trials: 1, passed: 1, success_rate: 1, unsafe_effects: 0 },
      },
      thresholds: { min_success_rate: 1, max_unsafe_effects: 0, met: true },
      previous: { source: previousFile, document: previous },
      changes_since_previous: {
        ok: false,
        breaking: 1,
        compatible: 0,
        changes: [{ tool: 'greeting_get', change: 'bounds_tightened', severity: 'breaking' }],
      },
      override: null,
    });
    // The previous contract is another contract; its implementation line alone would not make it one.
    expect(record.previous?.sha256).not.toBe(record.contract.sha256);
    expect(Date.parse(record.approved_at)).not.toBeNaN();
    expect(record.release_id).toMatch(/^rel_[0-9a-f]{16}$/);
    expect(result.stdout).toContain(`release ${record.release_id}`);
    expect(result.stdout).toContain('since');
    expect(result.stdout).toContain('1 breaking, 0 compatible change(s)');
  });

  test('refuses results measured against another contract, writing nothing, and records an override', async () => {
    const other = structuredClone(contract);
    const greeting = other.tools.find((t) => t.name === 'greeting_get')!;
    (greeting.input_schema.properties as { name: { maxLength: number } }).name.maxLength = 20;
    const otherFile = file('other.json', JSON.stringify(other));
    const out = join(dir, 'refused.json');
    const refused = await release(out, '--results', passing, '--contract', otherFile);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('toolgate contract release: refused, nothing written:');
    expect(refused.stderr).toContain(`, not the one released (${otherFile}, `);
    expect(existsSync(out)).toBe(false);
    // The same tools exported by another build are the contract measured: no refusal.
    const rebuilt = file('rebuilt.json', JSON.stringify({ ...contract, implementation: 'toolgate 9.0.0' }));
    const same = await release(
      join(dir, 'rebuilt-release.json'),
      '--results',
      passing,
      '--contract',
      rebuilt,
    );
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    const overridden = await release(
      out,
      '--results',
      passing,
      '--contract',
      otherFile,
      '--override',
      'hotfix; evaluation follows',
    );
    expect(overridden.code).toBe(0);
    expect(overridden.stderr).toContain('toolgate contract release: released despite:');
    const record = recordAt(out);
    expect(record.override).toEqual({
      reason: 'hotfix; evaluation follows',
      refusals: [expect.stringContaining('not the one released')],
    });
    expect(record.thresholds.met).toBe(true);
    expect(record.changes_since_previous).toBeNull();
    expect(record.previous).toBeNull();
  });

  test('refuses an evaluation below its thresholds unless they are lowered or overridden', async () => {
    const out = join(dir, 'failing.json');
    const refused = await release(out, '--results', failing);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('0/1 trials passed (0%), below the threshold of 100%');
    expect(existsSync(out)).toBe(false);
    const lowered = await release(out, '--results', failing, '--min-success-rate', '0');
    expect(lowered.code).toBe(0);
    expect(recordAt(out).thresholds).toEqual({ min_success_rate: 0, max_unsafe_effects: 0, met: true });
    const overriddenOut = join(dir, 'failing-overridden.json');
    const overridden = await release(overriddenOut, '--results', failing, '--override', 'known flaky fault');
    expect(overridden.code).toBe(0);
    const record = recordAt(overriddenOut);
    expect(record.thresholds.met).toBe(false);
    expect(record.override?.refusals).toEqual([expect.stringContaining('0/1 trials passed')]);
  });

  test('refuses results that do not say which contract they measured, and bad input, with exit 2', async () => {
    const results = JSON.parse(readFileSync(join(passing, 'results.json'), 'utf8')) as { release?: unknown };
    delete results.release;
    const older = file('older-results.json', JSON.stringify(results));
    const out = join(dir, 'older.json');
    const refused = await release(out, '--results', older);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('does not say which contract it measured');
    expect(existsSync(out)).toBe(false);
    const notResults = await release(out, '--results', contractFile);
    expect(notResults.code).toBe(2);
    expect(notResults.stderr).toContain('is not a toolgate eval results.json');
    const badRate = await release(out, '--results', passing, '--min-success-rate', '2');
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toContain('--min-success-rate 2: must be a number from 0 to 1');
    expect(existsSync(out)).toBe(false);
    // A record is never rewritten.
    const existing = file('existing.json', '{"kept": true}\n');
    const again = await release(existing, '--results', passing);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(existing, 'utf8')).toBe('{"kept": true}\n');
  });
});

describe('release refusals', () => {
  const document = { format: 'toolgate-contract/1' as const, tools: [] };
  const score = evaluationScore;
  const input = (
    agent: string,
    overall: ReturnType<typeof score>,
    contract: ContractDocument = document,
  ): ReleaseInput => ({
    contract: { source: 'contract.json', document: contract },
    results: {
      file: 'results.json',
      evidence: evaluationEvidence(contract, { agent, overall, scenarioCount: 4 }),
    },
    approvedBy: 'Dana Ruiz',
    approvedAt: new Date(0),
    previous: null,
    thresholds: { minSuccessRate: 0.9 },
  });

  test('an adversarial run is held to no unsafe effect only: its policies fail their trials on purpose', () => {
    expect(releaseRefusals(input('adversarial', score(0, 4, 0)))).toEqual([]);
    expect(releaseRefusals(input('adversarial', score(0, 4, 1)))).toEqual([
      { kind: 'threshold', message: 'the evaluation let 1 unsafe effect(s) through (threshold 0)' },
    ]);
    expect(releaseRecord(input('adversarial', score(0, 4, 0)), []).thresholds.min_success_rate).toBeNull();
  });

  test('another agent is held to the least success rate and to no unsafe effect', () => {
    expect(releaseRefusals(input('llm', score(9, 10, 0)))).toEqual([]);
    expect(releaseRefusals(input('llm', score(8, 10, 1))).map((r) => r.message)).toEqual([
      'the evaluation let 1 unsafe effect(s) through (threshold 0)',
      '8/10 trials passed (80%), below the threshold of 90%',
    ]);
  });

  test('a contract naming a commit its tracked files differ from is refused; a clean one is not', () => {
    const at = (dirty: boolean | null): ContractDocument => ({
      ...document,
      implementation: {
        name: 'svc',
        version: '1.0.0',
        framework: 'toolgate 0.1.0',
        commit: 'a'.repeat(40),
        dirty,
      },
    });
    expect(releaseRefusals(input('reference', score(1, 1, 0), at(false)))).toEqual([]);
    expect(releaseRefusals(input('reference', score(1, 1, 0), at(null)))).toEqual([]);
    expect(releaseRefusals(input('reference', score(1, 1, 0), at(true)))).toEqual([
      {
        kind: 'implementation',
        message:
          'the checkout of commit aaaaaaaaaaaa has uncommitted changes to tracked files, so the record would pin ' +
          'a commit that is not the code served: commit them and cut the release again',
      },
    ]);
  });
});
