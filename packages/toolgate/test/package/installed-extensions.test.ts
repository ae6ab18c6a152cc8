import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { declaredExtensions } from '../../src/extensions/installed-extensions.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const HARNESS_MISSING =
  'the evaluation harness is not installed; install it with: npm install --save-dev @toolgate/eval';

/**
 * Projects as npm installs them: the built packages copied into node_modules (every other dependency
 * linked from this checkout), a package.json naming what the project depends on, run as a user would.
 */
describe('the commands installed packages provide', () => {
  let dir: string;
  /** The built package of packages/<folder>: its manifest and dist/. */
  const SHIPPED: Record<string, { name: string; files: readonly string[] }> = {
    toolgate: { name: 'toolgate', files: ['bin', 'dist', 'package.json'] },
    simulation: { name: '@toolgate/simulation', files: ['dist', 'package.json'] },
    eval: { name: '@toolgate/eval', files: ['dist', 'package.json'] },
  };
  /** A project with these packages installed and these listed as its dev dependencies. */
  function project(name: string, installed: readonly string[], listed: readonly string[]): string {
    const at = join(dir, name);
    const modules = join(at, 'node_modules');
    mkdirSync(join(modules, '@toolgate'), { recursive: true });
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry !== 'toolgate' && entry !== '@toolgate')
        symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
    for (const folder of installed) {
      const { name: pkg, files } = SHIPPED[folder]!;
      for (const file of files)
        cpSync(join(ROOT, 'packages', folder, file), join(modules, pkg, file), { recursive: true });
    }
    const devDependencies = Object.fromEntries(listed.map((folder) => [SHIPPED[folder]!.name, '0.1.0']));
    writeFileSync(join(at, 'package.json'), JSON.stringify({ name, private: true, devDependencies }));
    return at;
  }
  let noHarness: string;
  let unlisted: string;
  let withHarness: string;
  let custom: string;
  let noKit: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-extensions-'));
    noHarness = project('no-harness', ['toolgate', 'simulation'], ['toolgate', 'simulation']);
    unlisted = project('unlisted', ['toolgate', 'simulation', 'eval'], ['toolgate']);
    withHarness = project('with-harness', ['toolgate', 'simulation', 'eval'], ['toolgate', 'eval']);
    custom = project('custom', ['toolgate'], ['toolgate']);
    noKit = project('no-kit', ['toolgate', 'eval'], ['toolgate', 'eval']);
    // A team's own package adding a command, through the same declaration the harness makes.
    for (const fixture of ['hello-toolgate', 'broken-toolgate'])
      cpSync(join(ROOT, 'test/package/fixtures', fixture), join(custom, 'node_modules', fixture), {
        recursive: true,
      });
    writeFileSync(
      join(custom, 'package.json'),
      JSON.stringify({
        name: 'custom',
        private: true,
        dependencies: { 'hello-toolgate': '1.0.0', 'broken-toolgate': '1.0.0' },
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(install: string, args: readonly string[]) {
    const bin = join(install, 'node_modules/toolgate/bin/toolgate.mjs');
    const result = spawnSync(process.execPath, [bin, ...args], {
      cwd: install,
      encoding: 'utf8',
      env: { ...process.env, TOOLGATE_CONFIG: '' },
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  test('an extension counts when the project depends on its package, read from the manifests alone', () => {
    expect(declaredExtensions(withHarness).map((d) => [d.packageName, d.commands])).toEqual([
      ['@toolgate/eval', ['eval', 'contract release']],
    ]);
    expect(declaredExtensions(unlisted)).toEqual([]);
    expect(declaredExtensions(noHarness)).toEqual([]);
    // In this workspace, its members count as installed.
    expect(declaredExtensions(ROOT).map((d) => d.packageName)).toEqual(['@toolgate/eval']);
  });

  test('eval says how to install the harness in one line, exit 2, and writes no results', () => {
    for (const install of [noHarness, unlisted]) {
      const result = run(install, ['eval', '--scenarios', join(ROOT, 'eval/scenarios'), '--no-progress']);
      expect(result).toEqual({ code: 2, stdout: '', stderr: `toolgate eval: ${HARNESS_MISSING}\n` });
      expect(existsSync(join(install, 'eval'))).toBe(false);
    }
  });

  test('the harness without the kit it builds on names the kit in one line, exit 2', () => {
    const result = run(noKit, ['eval', '--no-progress']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'toolgate eval: the evaluation harness needs the simulation kit, which is not installed; install it with: npm install --save-dev @toolgate/simulation\n',
    });
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

  test('with the harness installed, eval --help lists its flags and their choices', () => {
    const result = run(withHarness, ['eval', '--help']);
    expect(result.code, result.stderr).toBe(0);
    for (const choice of ['"llm"', '"new_key_after_timeout"', '"repeat_non_retryable"', '"anthropic"']) {
      expect(result.stdout).toContain(choice);
    }
    expect(run(withHarness, ['contract', '--help']).stdout).toMatch(/release \[options\]/);
    // Without it, the command is there to say what to install.
    expect(run(noHarness, ['eval', '--help']).stdout).toContain('npm install --save-dev @toolgate/eval');
  });

  test("a package of the team's own adds a command: its flags checked, its exit status kept", () => {
    expect(run(custom, ['hello'])).toEqual({ code: 0, stdout: 'hello: warm (default)\n', stderr: '' });
    expect(run(custom, ['hello', '--tone', 'dry'])).toMatchObject({ code: 3, stdout: 'hello: dry (cli)\n' });
    const wrong = run(custom, ['hello', '--tone', 'loud']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("argument 'loud' is invalid. Allowed choices are warm, dry.");
    // The help lists it, and says in one line that a declared extension could not be loaded.
    const help = run(custom, ['--help']);
    expect(help.stdout).toMatch(/hello \[options\] +Greets\./);
    expect(help.stderr).toMatch(
      /^toolgate: broken-toolgate declares the toolgate extension .*, whose default export is not one/,
    );
    // Asked to run the command it declares: that line, exit 2.
    const broken = run(custom, ['broken']);
    expect(broken).toMatchObject({ code: 2, stdout: '', stderr: help.stderr });
  });

  test('a command without a config says how to write one, exit 2, and creates no data', () => {
    const dataDir = join(dir, 'serve-data');
    for (const args of [
      ['serve', '--port', '0', '--data-dir', dataDir],
      ['contract', 'export'],
      ['policy', 'validate'],
      ['eval', '--scenarios', join(ROOT, 'eval/scenarios'), '--no-progress'],
    ]) {
      const result = run(withHarness, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `toolgate ${args[0] === 'contract' || args[0] === 'policy' ? args.slice(0, 2).join(' ') : args[0]}: no toolgate.config.* in ${withHarness}: nothing to work on.\n` +
          '  Fix: add toolgate.config.ts there (npx toolgate init writes one; export default defineConfig({ tools: [...] })) or pass --config FILE.\n',
      );
    }
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(withHarness).sort()).toEqual(['node_modules', 'package.json']);
  });
});
