import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { diffContracts, diffVersions } from '../../src/contract-artifacts/contract-diff.ts';
import type { ContractDocument } from '../../src/contract-artifacts/contract-document.ts';
import { serializeContract } from '../../src/contract-artifacts/contract-export.ts';
import { lintContract } from '../../src/contract-artifacts/contract-lint.ts';
import { renderToolCatalog } from '../../src/contract-artifacts/tool-catalog-doc.ts';

const CONFIG = 'test/contract-artifacts/fixtures/notes-versions.config.mjs';
const dir = mkdtempSync(join(tmpdir(), 'toolgate-contract-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function toolgate(...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/toolgate.mjs', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const exported = toolgate('contract', 'export', '--config', CONFIG);
const contract = JSON.parse(exported.stdout) as ContractDocument;
/** The contract as it was before 2.0.0 was added: notes_get served in 1.0.0 alone. */
const before: ContractDocument = {
  ...contract,
  tools: contract.tools.filter((t) => !(t.name === 'notes_get' && t.version === '2.0.0')),
};

describe('contract artifacts of a tool served in two versions', () => {
  test('export holds both versions, sorted by name then version, the newer with its rollout', () => {
    expect(exported.status, exported.stderr).toBe(0);
    expect(contract.tools.map((t) => `${t.name}@${t.version}`)).toEqual([
      'notes_create@1.0.0',
      'notes_get@1.0.0',
      'notes_get@2.0.0',
      'operations_get@2.3.0',
    ]);
    const [v1, v2] = contract.tools.filter((t) => t.name === 'notes_get');
    expect(v1?.rollout).toBeUndefined();
    expect(v2?.rollout).toEqual({ groups: ['notes-beta'], percent: 10 });
    expect(v1?.definition_sha256).not.toBe(v2?.definition_sha256);
  });

  test('contract diff --versions NAME compares the two served versions within one contract', () => {
    const diff = diffVersions(contract, 'notes_get');
    expect(diff.verdicts).toEqual([
      expect.objectContaining({
        tool: 'notes_get',
        oldVersion: '1.0.0',
        newVersion: '2.0.0',
        accepted: true,
      }),
    ]);
    expect(diff.changes.filter((c) => c.severity === 'breaking').map((c) => c.change)).toEqual(
      expect.arrayContaining(['input_field_removed']),
    );
    expect(diff.changes.map((c) => c.change)).toEqual(
      expect.arrayContaining(['policy_changed', 'version_changed']),
    );
    expect(() => diffVersions(contract, 'notes_create')).toThrow('served in 1 version(s)');

    const file = join(dir, 'two.contract.json');
    writeFileSync(file, serializeContract(contract));
    const run = toolgate('contract', 'diff', '--versions', 'notes_get', file, '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      tools: [{ tool: 'notes_get', old_version: '1.0.0', new_version: '2.0.0', accepted: true }],
    });
    const served = toolgate('contract', 'diff', '--versions', 'notes_get', '--config', CONFIG);
    expect(served.status, served.stderr).toBe(0);
    expect(served.stdout).toContain('notes_get 1.0.0 -> 2.0.0  [breaking, accepted: major version bumped]');
    const single = toolgate('contract', 'diff', '--versions', 'notes_create', file);
    expect(single.status).toBe(2);
    expect(single.stderr).toContain('notes_create is served in 1 version(s)');
  });

  test('contract diff pairs the versions of one name by major: adding one, then retiring the old', () => {
    const added = diffContracts(before, contract);
    expect(added.ok).toBe(true);
    expect(added.changes).toEqual([
      expect.objectContaining({ tool: 'notes_get@2', change: 'tool_added', severity: 'compatible' }),
    ]);
    // Finishing the migration: 1.0.0 goes, 2.0.0 drops its rollout and is served to everyone.
    const finished: ContractDocument = {
      ...contract,
      tools: contract.tools
        .filter((t) => !(t.name === 'notes_get' && t.version === '1.0.0'))
        .map(({ rollout: _rollout, ...t }) => t),
    };
    const retired = diffContracts(contract, finished);
    expect(retired.ok).toBe(false);
    expect(retired.verdicts.filter((v) => !v.accepted).map((v) => v.tool)).toEqual(['notes_get@1']);
    expect(retired.changes.find((c) => c.tool === 'notes_get@2')?.change).toBe('policy_changed');
    expect(diffContracts(contract, finished, { allowRemoved: ['notes_get@1'] }).ok).toBe(true);
  });

  test('lint and the catalog tell the two versions apart instead of calling them twins', () => {
    const report = lintContract(contract);
    expect(report.findings.filter((f) => f.rule === 'name-unique')).toEqual([]);
    for (const finding of report.findings.filter((f) => f.tool.startsWith('notes_get'))) {
      expect(['notes_get@1.0.0', 'notes_get@2.0.0']).toContain(finding.tool);
    }
    const twins = lintContract({ ...contract, tools: [...contract.tools, contract.tools[1]!] });
    expect(twins.findings.filter((f) => f.rule === 'name-unique').length).toBeGreaterThan(0);

    const catalog = renderToolCatalog(contract);
    expect(catalog).toContain('| [notes_get 1.0.0](#notes_get-100) |');
    expect(catalog).toContain('| [notes_get 2.0.0](#notes_get-200) |');
    expect(catalog).toContain('## notes_get 2.0.0');
    expect(catalog).toContain('| Rollout | served to groups `notes-beta` or 10% of subjects;');
    expect(catalog).toContain('| [notes_create](#notes_create) |');
  });
});
