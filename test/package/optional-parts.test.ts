import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  EVAL_HARNESS,
  importPart,
  PartMissingError,
  REFERENCE_DEMO,
} from '../../packages/toolgate/src/cli/optional-parts.ts';

const ROOT = join(import.meta.dirname, '../..');
const HARNESS_MISSING =
  'the evaluation harness is not installed; install it with: npm install --save-dev @toolgate/eval';
const DEMO_MISSING =
  'the reference demo is not installed; write a toolgate.config.ts (npx toolgate init) and run with it';

/** The error Node's loader raises for a package (or a module) that is not there. */
function notFound(missing: string, importer: string): NodeJS.ErrnoException {
  const what = missing.startsWith('/') ? 'module' : 'package';
  return Object.assign(new Error(`Cannot find ${what} '${missing}' imported from ${importer}`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}
const CLI = '/p/node_modules/toolgate/dist/cli/optional-parts.js';

describe('importPart', () => {
  test('an absent entry is a PartMissingError whose message is the one line to print', async () => {
    const absent = () => Promise.reject(notFound('@toolgate/eval', CLI));
    const error = await importPart(EVAL_HARNESS, absent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartMissingError);
    expect((error as Error).message).toBe(HARNESS_MISSING);
    const demo = () => Promise.reject(notFound('@toolgate/domains', CLI));
    await expect(importPart(REFERENCE_DEMO, demo)).rejects.toThrow(DEMO_MISSING);
  });

  test('a module missing inside a present part, or any other failure, is not taken for its absence', async () => {
    const harness = '/p/node_modules/@toolgate/eval/dist';
    const inside = notFound(`${harness}/agents/llm-model.js`, `${harness}/index.js`);
    await expect(importPart(EVAL_HARNESS, () => Promise.reject(inside))).rejects.toBe(inside);
    // The harness is there but a model SDK it needs is not: that is a broken install, not the harness missing.
    const sdk = notFound('ai', `${harness}/agents/llm-model.js`);
    await expect(importPart(EVAL_HARNESS, () => Promise.reject(sdk))).rejects.toBe(sdk);
    const broken = new SyntaxError('Unexpected token');
    await expect(importPart(EVAL_HARNESS, () => Promise.reject(broken))).rejects.toBe(broken);
    // The demo's entry missing is not the harness missing.
    const other = notFound('@toolgate/domains', CLI);
    await expect(importPart(EVAL_HARNESS, () => Promise.reject(other))).rejects.toBe(other);
  });

  test('a peer the harness needs and npm left out is named in the same one line', async () => {
    const harness = '/p/node_modules/@toolgate/eval/dist';
    const kit = () => Promise.reject(notFound('@toolgate/simulation', `${harness}/in-process-world.js`));
    const error = await importPart(EVAL_HARNESS, kit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartMissingError);
    expect((error as Error).message).toBe(
      'the evaluation harness needs the simulation kit, which is not installed; install it with: npm install --save-dev @toolgate/simulation',
    );
    // The demo declares no such peer: its missing kit stays the loader's own error.
    const demoKit = notFound('@toolgate/simulation', '/p/node_modules/@toolgate/domains/dist/index.js');
    await expect(importPart(REFERENCE_DEMO, () => Promise.reject(demoKit))).rejects.toBe(demoKit);
  });

  test('a present part is the module itself', async () => {
    const entry = { runEvaluation: () => 'ran' };
    expect(await importPart(EVAL_HARNESS, () => Promise.resolve(entry))).toBe(entry);
  });
});

/**
 * An installation without the harness (or without the demo): the built packages copied into a
 * project's node_modules as npm installs them, with that part's package left out, every other
 * dependency linked from this checkout, run as a user would.
 */
describe('the toolgate command without one of its optional parts', () => {
  let dir: string;
  /** The built package of packages/<folder>: its manifest and dist/ (and what else ships with it). */
  const SHIPPED: Record<string, { name: string; files: readonly string[] }> = {
    toolgate: { name: 'toolgate', files: ['bin', 'dist', 'package.json'] },
    simulation: { name: '@toolgate/simulation', files: ['dist', 'package.json'] },
    domains: { name: '@toolgate/domains', files: ['dist', 'package.json', 'policies'] },
    eval: { name: '@toolgate/eval', files: ['dist', 'package.json'] },
  };
  /** A project whose node_modules holds every built package but packages/<left>. */
  function installWithout(left: string): string {
    const project = join(dir, `without-${left}`);
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, '@toolgate'), { recursive: true });
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry !== 'toolgate' && entry !== '@toolgate')
        symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
    for (const [folder, { name, files }] of Object.entries(SHIPPED)) {
      if (folder === left) continue;
      for (const file of files)
        cpSync(join(ROOT, 'packages', folder, file), join(modules, name, file), { recursive: true });
    }
    return project;
  }
  let noHarness: string;
  let noDemo: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-parts-'));
    noHarness = installWithout('eval');
    noDemo = installWithout('domains');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What a command says that found no config (config discovery's notice) and then no demo. */
  function demoAbsent(activity: string, command: string): string {
    return (
      `no toolgate.config.* here: ${activity} the reference demo (--config FILE or ./toolgate.config.ts for your own tools)\n` +
      `toolgate ${command}: ${DEMO_MISSING}\n`
    );
  }
  const activity: Record<string, string> = { 'contract export': 'exporting', eval: 'evaluating' };

  function run(install: string, args: readonly string[]) {
    const bin = join(install, 'node_modules/toolgate/bin/toolgate.mjs');
    const result = spawnSync(process.execPath, [bin, ...args], {
      cwd: install,
      encoding: 'utf8',
      env: { ...process.env, TOOLGATE_CONFIG: '' },
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  test('the copies lack exactly the part left out', () => {
    const installed = (project: string, name: string) => existsSync(join(project, 'node_modules', name));
    expect(installed(noHarness, '@toolgate/eval')).toBe(false);
    expect(installed(noHarness, '@toolgate/domains/dist/index.js')).toBe(true);
    expect(installed(noDemo, '@toolgate/domains')).toBe(false);
    expect(installed(noDemo, '@toolgate/eval/dist/index.js')).toBe(true);
    expect(installed(noDemo, 'toolgate/dist/cli/main.js')).toBe(true);
  });

  test('eval says how to install the harness in one line, exit 2, and writes no results', () => {
    const result = run(noHarness, ['eval', '--scenarios', join(ROOT, 'eval/scenarios'), '--no-progress']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `toolgate eval: ${HARNESS_MISSING}\n` });
    expect(existsSync(join(noHarness, 'eval'))).toBe(false);
  });

  test('eval --help needs no harness: the flags and their choices are the CLI’s own', () => {
    const result = run(noHarness, ['eval', '--help']);
    expect(result.code).toBe(0);
    for (const choice of ['"llm"', '"new_key_after_timeout"', '"repeat_non_retryable"', '"anthropic"']) {
      expect(result.stdout).toContain(choice);
    }
  });

  test('contract release says how to install the harness, exit 2, and writes no record', () => {
    const record = join(dir, 'release.json');
    const result = run(noHarness, [
      'contract',
      'release',
      '--results',
      join(dir, 'results.json'),
      '--approved-by',
      'someone',
      '--out',
      record,
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `toolgate contract release: ${HARNESS_MISSING}\n`,
    });
    expect(existsSync(record)).toBe(false);
  });

  test('without the harness the demo is still served: contract export lists its tools', () => {
    const result = run(noHarness, ['contract', 'export']);
    expect(result.code, result.stderr).toBe(0);
    const tools = (JSON.parse(result.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toContain('orders_get');
  });

  test('serve without a config says the demo is absent and what to do, exit 2, and creates no data', () => {
    const dataDir = join(dir, 'serve-data');
    const result = run(noDemo, ['serve', '--port', '0', '--data-dir', dataDir]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: demoAbsent('serving', 'serve') });
    expect(existsSync(dataDir)).toBe(false);
  });

  test.each([
    [['contract', 'export'], 'contract export'],
    [['policy', 'validate'], 'policy validate'],
    [['eval', '--scenarios', join(ROOT, 'eval/scenarios'), '--no-progress'], 'eval'],
  ])('%j without a config says the demo is absent, exit 2', (args, command) => {
    const result = run(noDemo, args);
    const stderr =
      command === 'policy validate'
        ? `toolgate ${command}: ${DEMO_MISSING}\n`
        : demoAbsent(activity[command]!, command);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
    expect(readdirSync(noDemo)).toEqual(['node_modules']);
  });
});
