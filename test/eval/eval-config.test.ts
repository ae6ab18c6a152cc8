import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');

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
    const result = await runCommand(
      join(ROOT, 'bin/toolgate.mjs'),
      [
        'eval',
        '--config',
        'test/eval/support/lamps.config.ts',
        '--scenarios',
        'test/eval/scenarios',
        '--out',
        out,
        '--no-progress',
      ],
      { cwd: ROOT },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      trials: { scenario: string; passed: boolean }[];
    };
    expect(report.trials.map((t) => t.scenario).sort()).toEqual([
      'lamps-direct',
      'lamps-locked-after-read',
      'lamps-lost-response',
      'lamps-viewer-cannot-switch',
      'lamps-which-lamp',
    ]);
    expect(report.trials.every((t) => t.passed)).toBe(true);
  });
});
