import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from '../../../test/support/serve-process.ts';
import { evalLamps } from './support/lamps-eval.ts';

const ROOT = join(import.meta.dirname, '../../..');

/**
 * `toolgate eval --config` runs a team's own scenarios against their own module (the lamps module,
 * written against the public package only), with its fixtures, faults and world actions.
 */
describe('toolgate eval --config', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'toolgate-eval-config-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('evaluates the config module against its own scenarios, faults and world actions included', async () => {
    const result = await evalLamps(['--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      trials: { scenario: string; passed: boolean }[];
    };
    expect(report.trials.map((t) => t.scenario).sort()).toEqual([
      'lamps-direct',
      'lamps-locked-after-read',
      'lamps-lost-response',
      'lamps-remove-confirmed',
      'lamps-remove-declined',
      'lamps-viewer-cannot-switch',
      'lamps-which-lamp',
    ]);
    expect(report.trials.every((t) => t.passed)).toBe(true);
    // The lamps module simulates its systems, so its own reset isolates the trials: no warning.
    expect((report as unknown as { isolation: unknown }).isolation).toEqual({
      isolated: true,
      modulesWithoutReset: [],
    });
    // The trajectory rules judged the team's own tools too: the lost response put same_key_on_retry to the test.
    const rules = (
      report as unknown as { overall: { rules: Record<string, { arose: number; violated: number }> } }
    ).overall.rules;
    expect(rules.same_key_on_retry).toEqual({ arose: 1, violated: 0 });
  });

  test('--compare shows what changed since an earlier run', async () => {
    const again = join(out, 'again');
    const result = await evalLamps(['--filter', 'lamps-direct', '--out', again, '--compare', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`compared with ${out}: 6 scenario result(s) changed`);
    const summary = readFileSync(join(again, 'summary.md'), 'utf8');
    expect(summary).toContain(`## Compared with ${out}`);
    expect(summary).toContain('- **lamps-lost-response** [reference] 1/1 passed -> not run');
    expect(readFileSync(join(again, 'report.html'), 'utf8')).toContain('<section id="comparison">');
    const missing = await evalLamps(['--compare', join(out, 'nowhere.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('toolgate eval --compare:');
  });

  test('outside a checkout a missing scenario directory is named, and a key on the command line is warned about', async () => {
    const bin = join(ROOT, 'bin/toolgate.mjs');
    // A project with the harness installed and the demo's config, but no eval/scenarios of its own.
    const project = join(out, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ devDependencies: { '@toolgate/eval': '0.1.0' } }),
    );
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    const config = join(ROOT, 'toolgate.config.ts');
    const missing = await runCommand(
      bin,
      ['eval', '--config', config, '--scenarios', join(out, 'no-such-dir'), '--no-progress'],
      { cwd: project },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no scenario directory at ${join(out, 'no-such-dir')}`);
    const keyed = await runCommand(
      bin,
      [
        'eval',
        '--api-key',
        'sk-test',
        '--config',
        config,
        '--scenarios',
        join(out, 'no-such-dir'),
        '--no-progress',
      ],
      { cwd: project },
    );
    expect(keyed.stderr).toContain('--api-key is visible to other users in the process list');
    expect(keyed.stderr).not.toContain('sk-test');
  });

  const evalTools = (config: string, scenarios: string, dir: string) =>
    runCommand(
      join(ROOT, 'bin/toolgate.mjs'),
      ['eval', '--config', config, '--scenarios', scenarios, '--out', dir, '--no-progress'],
      { cwd: ROOT },
    );

  test('evaluates a config of tools only: no simulated world, a caller the scenario states', async () => {
    const dir = join(out, 'tools-only');
    const result = await evalTools(
      'packages/eval/test/tools-only/tools-only.config.ts',
      'packages/eval/test/tools-only/scenarios',
      dir,
    );
    // Plain tools have no reset hook: one warning for the run (the baseline and the trial both reset).
    const warning =
      'module config has no reset hook: the external systems it calls keep their state from one trial ' +
      'to the next, so the trials are not isolated';
    expect(result.stderr).toBe(`toolgate eval: warning: ${warning}\n`);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      trials: { scenario: string; passed: boolean; reasons: string[] }[];
      isolation: unknown;
    };
    expect(report.trials.map((t) => [t.scenario, t.passed, t.reasons])).toEqual([
      ['greeting-read', true, []],
    ]);
    expect(report.isolation).toEqual({ isolated: false, modulesWithoutReset: ['config'] });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`- **Not isolated**: ${warning}.`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(
      `<li><strong>Not isolated</strong>: ${warning}.</li>`,
    );
  });

  test('fails a trial whose fault targets nothing, saying so, instead of counting it as injected', async () => {
    const dir = join(out, 'tools-only-fault');
    const result = await evalTools(
      'packages/eval/test/tools-only/tools-only.config.ts',
      'packages/eval/test/tools-only/fault-scenarios',
      dir,
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      trials: { passed: boolean; reasons: string[] }[];
    };
    expect(report.trials[0]?.passed).toBe(false);
    expect(report.trials[0]?.reasons.join(' ')).toContain(
      'fault drop_response_after_apply on greeting_service targets nothing',
    );
  });

  test('exits 2 with the reason when the config cannot be imported', async () => {
    const result = await evalTools(
      'packages/eval/test/tools-only/broken.config.ts',
      'packages/eval/test/tools-only/scenarios',
      join(out, 'broken'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('toolgate eval: cannot load the config');
    expect(result.stderr).toContain('the config is broken');
  });

  test('records the contract, the scenario set and the implementation the run measured', async () => {
    const dir = join(out, 'tools-only');
    const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      release: {
        contractSha256: string;
        scenarioSetSha256: string;
        scenarioCount: number;
        implementation: string;
      };
    };
    const exported = await runCommand(
      join(ROOT, 'bin/toolgate.mjs'),
      ['contract', 'export', '--config', 'packages/eval/test/tools-only/tools-only.config.ts'],
      { cwd: ROOT },
    );
    expect(exported.code).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/toolgate/package.json'), 'utf8')) as {
      version: string;
    };
    expect(report.release).toEqual({
      // The exported file with only its format and tools: the tools, whoever serves them and however governed.
      contractSha256: createHash('sha256').update(toolsOnly(exported.stdout)).digest('hex'),
      scenarioSetSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      scenarioCount: 1,
      implementation: `toolgate ${version}`,
    });
    // Another scenario set hashes differently.
    const other = JSON.parse(
      readFileSync(join(out, 'tools-only-fault', 'results.json'), 'utf8'),
    ) as typeof report;
    expect(other.release.scenarioSetSha256).not.toBe(report.release.scenarioSetSha256);
    expect(other.release.contractSha256).toBe(report.release.contractSha256);
  });
});

/** A contract export (sorted keys, two-space indent) reduced to its format and tools, as contractSha256 hashes it. */
function toolsOnly(exported: string): string {
  const { format, tools } = JSON.parse(exported) as { format: string; tools: unknown };
  return `${JSON.stringify({ format, tools }, null, 2)}\n`;
}
