import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_POLICY_DIR } from '@toolgate/domains';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';
import { readPolicyCases, runPolicyCases } from '../../src/policy/policy-cases.ts';
import { loadPolicyDirectory } from '../../src/policy/policy-directory.ts';
import { PolicyEngine } from '../../src/policy/policy-engine.ts';
import { describePolicyProblem } from '../../src/policy/policy-problem.ts';

const CLI = join(import.meta.dirname, '../../../../bin/toolgate.mjs');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (e: unknown) => e as { code: number; stdout: string; stderr: string },
  );

const CASE_FILES = readdirSync(join(DEMO_POLICY_DIR, 'tests')).filter((f) => f.endsWith('.yml'));

describe('the shipped policies', () => {
  const loaded = loadPolicyDirectory(DEMO_POLICY_DIR);

  test('validate against their schema', () => {
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
  });

  test.each(CASE_FILES)('hold every case of tests/%s', (file) => {
    if (!loaded.ok) throw new Error('the shipped policies do not load');
    const results = runPolicyCases(
      new PolicyEngine(loaded.directory),
      readPolicyCases(join(DEMO_POLICY_DIR, 'tests', file)),
    );
    expect(results.filter((r) => !r.passed)).toEqual([]);
    expect(results.length).toBeGreaterThan(0);
  });
});

describe('a policy directory', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-policy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const copyOfDemo = (name: string): string => {
    const target = join(dir, name);
    cpSync(DEMO_POLICY_DIR, target, { recursive: true });
    return target;
  };

  test('that breaks the schema is refused, each problem named by file and line', () => {
    const broken = copyOfDemo('broken');
    writeFileSync(
      join(broken, 'orders.cedar'),
      `${readFileSync(join(broken, 'orders.cedar'), 'utf8')}\npermit (principal, action == Action::"orders_get", resource is Tool)\nwhen { resource.owner == principal.subject };\n`,
    );
    writeFileSync(join(broken, 'extra.cedar'), 'permit (principal, action, resource)\nwhen { ) };\n');
    const loaded = loadPolicyDirectory(broken);
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems;
    const orders = problems.find((p) => p.file === 'orders.cedar');
    const lines = readFileSync(join(broken, 'orders.cedar'), 'utf8').split('\n');
    expect(orders?.message).toContain('owner');
    expect(lines[orders!.line - 1]).toContain('resource.owner == principal.subject');
    expect(problems.find((p) => p.file === 'extra.cedar')).toMatchObject({ line: 2 });
  });

  test('changes its version when any file changes, and keeps it otherwise', () => {
    const first = copyOfDemo('versioned');
    const before = loadPolicyDirectory(first);
    const again = loadPolicyDirectory(copyOfDemo('same'));
    writeFileSync(
      join(first, 'reads.cedar'),
      `${readFileSync(join(first, 'reads.cedar'), 'utf8')}\n// reviewed\n`,
    );
    const after = loadPolicyDirectory(first);
    if (!before.ok || !again.ok || !after.ok) throw new Error('the copies should load');
    expect(before.directory.version).toMatch(/^[0-9a-f]{12}$/);
    expect(again.directory.version).toBe(before.directory.version);
    expect(after.directory.version).not.toBe(before.directory.version);
  });
});

describe('toolgate policy', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-policy-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('validate exits 0 for the shipped set and 2 naming file:line for a broken one', async () => {
    const ok = await run(['policy', 'validate']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/policy_version [0-9a-f]{12}/);
    const broken = join(dir, 'broken');
    cpSync(DEMO_POLICY_DIR, broken, { recursive: true });
    writeFileSync(
      join(broken, 'changes.cedar'),
      '// one line\npermit (principal, action, resource) when { principal.nope };\n',
    );
    const refused = await run(['policy', 'validate', broken]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^changes\.cedar:2:\d+: .*nope/m);
  });

  test('a missing or empty policy directory is named as the directory, without a line', async () => {
    const missing = join(dir, 'no-such-policies');
    const refused = await run(['policy', 'validate', missing]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${missing}: no such policy directory`);
    expect(refused.stderr).not.toContain(`${missing}:1:1`);
    const empty = mkdtempSync(join(dir, 'empty-'));
    const problems = loadPolicyDirectory(empty);
    expect(problems.ok ? [] : problems.problems.map(describePolicyProblem)).toEqual([
      `${empty}: a policy directory needs exactly one *.cedarschema file (found 0)`,
      `${empty}: the policy directory holds no *.cedar file`,
    ]);
  });

  test('serve refuses to start with a broken policy set, naming the file and line', async () => {
    const broken = join(dir, 'serve-broken');
    cpSync(DEMO_POLICY_DIR, broken, { recursive: true });
    writeFileSync(
      join(broken, 'orders.cedar'),
      '\n\npermit (principal, action, resource) when { resource.nope };\n',
    );
    const refused = await run([
      'serve',
      '--policy',
      broken,
      '--port',
      '0',
      '--data-dir',
      join(dir, 'serve-data'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/orders\.cedar:3:\d+: .*nope/);
  });

  test('test exits 0 when every case holds and 1 naming the case that does not', async () => {
    const cases = join(DEMO_POLICY_DIR, 'tests', 'changes.yml');
    expect((await run(['policy', 'test', '--cases', cases])).code).toBe(0);
    const wrong = join(dir, 'wrong.yml');
    writeFileSync(
      wrong,
      readFileSync(cases, 'utf8').replace(
        '- name: a member of the owning group may create a staging change',
        '- name: a staging change is denied\n    expect: deny\n    tag: x',
      ),
    );
    const invalid = await run(['policy', 'test', '--cases', wrong]);
    expect(invalid.code).toBe(2);
    const flipped = join(dir, 'flipped.yml');
    writeFileSync(
      flipped,
      readFileSync(cases, 'utf8').replace(
        '    input: { environment: staging }\n    expect: allow',
        '    input: { environment: staging }\n    expect: deny',
      ),
    );
    const failed = await run(['policy', 'test', '--cases', flipped]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL  a member of the owning group may create a staging change');
  }, 60_000);

  test('token --groups puts the groups claim in the token and on the principal', async () => {
    const dataDir = join(dir, 'data');
    const minted = await run([
      'token',
      '--sub',
      'eng.a',
      '--tenant',
      'acme',
      '--actor',
      'support_agent',
      '--scopes',
      'changes:create',
      '--groups',
      'team-payments  team-ledger',
      '--data-dir',
      dataDir,
    ]);
    expect(minted.code).toBe(0);
    const verifier = await createTokenVerifier({ kind: 'dev', dataDir }, 'http://127.0.0.1:8787/mcp');
    const verdict = await verifier.verify(minted.stdout.trim());
    expect(verdict).toMatchObject({ ok: true, principal: { groups: ['team-ledger', 'team-payments'] } });
  });
});
