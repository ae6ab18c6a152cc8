import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_POLICY_DIR, referenceDomains } from '@toolgate/domains';
import { afterAll, describe, expect, test } from 'vitest';
import { serializeContract } from '../../src/contract-artifacts/contract-export.ts';
import { projectImplementation } from '../../src/contract-artifacts/project-implementation.ts';
import { buildServedContract } from '../../src/contract-artifacts/served-contract.ts';
import { renderToolCatalog } from '../../src/contract-artifacts/tool-catalog-doc.ts';
import { at, editTool, ticketContract } from './fixtures/ticket-tools.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-contract-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function toolgate(...args: string[]) {
  return toolgateWithInput('', ...args);
}

function toolgateWithInput(input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/toolgate.mjs', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    input,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const base = ticketContract();
const good = file('good.contract.json', serializeContract(base));
const tightened = editTool(base, 'tickets_open', (t) => {
  at(t, 'input_schema', 'properties', 'summary').maxLength = 100;
});

describe('toolgate contract and lint commands', () => {
  test('contract export --no-commit writes the contract of this build, byte for byte', async () => {
    const out = join(dir, 'export.json');
    const run = toolgate('contract', 'export', '--no-commit', '--out', out);
    expect(run.status, run.stderr).toBe(0);
    const built = await buildServedContract(referenceDomains, {
      implementation: projectImplementation(process.cwd(), { commit: false }),
      policyDir: DEMO_POLICY_DIR,
    });
    expect(readFileSync(out, 'utf8')).toBe(serializeContract(built));
  });

  test('contract export names the project, its commit and the policy set served', () => {
    const { name, version } = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, string>;
    const commit = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    const exported = JSON.parse(toolgate('contract', 'export').stdout);
    expect(exported.implementation).toEqual({
      name,
      version,
      commit,
      dirty: expect.any(Boolean),
      framework: expect.stringMatching(/^toolgate \d+\.\d+\.\d+/),
    });
    expect(exported.policy_set.files.map((f: { path: string }) => f.path)).toEqual([
      'toolgate.cedarschema',
      'changes.cedar',
      'orders.cedar',
      'reads.cedar',
      'workitems.cedar',
    ]);
    const policies = join(dir, 'policies');
    mkdirSync(policies);
    for (const name of ['toolgate.cedarschema', 'reads.cedar']) {
      writeFileSync(join(policies, name), readFileSync(join(DEMO_POLICY_DIR, name)));
    }
    const narrowed = JSON.parse(toolgate('contract', 'export', '--policy', policies).stdout);
    expect(narrowed.policy_set.files.map((f: { path: string }) => f.path)).toEqual([
      'toolgate.cedarschema',
      'reads.cedar',
    ]);
    expect(narrowed.policy_set.policy_version).not.toBe(exported.policy_set.policy_version);
  });

  test("contract export publishes a deployment's retention only when asked to", () => {
    const run = toolgate('contract', 'export', '--retention-seconds', '7200');
    expect(run.status, run.stderr).toBe(0);
    const keyed = JSON.parse(run.stdout).tools.filter((t: { kind: string }) => t.kind !== 'read');
    expect(keyed.length).toBeGreaterThan(0);
    for (const tool of keyed) expect(tool.idempotency.retention_seconds).toBe(7200);
  });

  test('lint FILE exits 0 on a clean contract and 1 with JSON findings on a broken one', () => {
    expect(toolgate('lint', good).status).toBe(0);
    const broken = file(
      'broken.contract.json',
      serializeContract(
        editTool(base, 'tickets_open', (t) => {
          delete at(t, 'input_schema', 'properties', 'tags').maxItems;
        }),
      ),
    );
    const run = toolgate('lint', broken, '--json');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      expect.objectContaining({
        rule: 'bounded-array',
        tool: 'tickets_open',
        pointer: '/input_schema/properties/tags',
      }),
    ]);
  });

  test('contract diff exits 1 for an unbumped breaking change and 0 once the major version is bumped', () => {
    const unbumped = file('unbumped.contract.json', serializeContract(tightened));
    const refused = toolgate('contract', 'diff', good, unbumped);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('[BREAKING: needs major version 3.0.0]');
    const bumped = file(
      'bumped.contract.json',
      serializeContract(
        editTool(tightened, 'tickets_open', (t) => {
          t.version = '3.0.0';
        }),
      ),
    );
    const accepted = toolgate('contract', 'diff', good, bumped, '--json');
    expect(accepted.status).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ ok: true, summary: { breaking: 1 } });
  });

  test('contract diff reads the old contract from standard input with -', () => {
    const unbumped = file('stdin-unbumped.contract.json', serializeContract(tightened));
    const run = toolgateWithInput(serializeContract(base), 'contract', 'diff', '-', unbumped, '--json');
    expect(run.status, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).summary).toEqual({
      breaking: 1,
      compatible: 0,
      unaccepted_tools: ['tickets_open'],
    });
  });

  test('contract docs renders a contract file', () => {
    const out = join(dir, 'tools.md');
    expect(toolgate('contract', 'docs', '--from', good, '--out', out).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(renderToolCatalog(base));
  });

  test('a file that is not a contract is a usage failure (exit 2), not a verdict', () => {
    const junk = file('junk.json', '{"tools": 3}');
    const run = toolgate('lint', junk);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^toolgate lint: .*junk\.json is not a toolgate-contract\/1 document/);
    expect(run.stdout).toBe('');
  });
});
