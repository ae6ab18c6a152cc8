import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from '../../../../test/support/serve-process.ts';
import { CONFIG_FILE_NAMES, discoverConfig } from '../../src/config/discover-config.ts';

const BIN = join(import.meta.dirname, '../../../../bin/toolgate.mjs');
const NOTES = pathToFileURL(
  join(import.meta.dirname, '../../../../test/config/fixtures/notes.config.mjs'),
).href;
const TOKEN_ARGS = ['token', '--sub', 'u1', '--tenant', 't1', '--actor', 'customer'];

/** The notes config with its own data dir, so that which config a command used shows on disk. */
const notesConfig = (dataDir: string) =>
  `import notes from '${NOTES}';\nexport default { ...notes, dataDir: '${dataDir}' };\n`;

describe('a command without --config', () => {
  let root: string;
  const folder = (name: string, files: Record<string, string> = {}) => {
    const dir = join(root, name);
    mkdirSync(dir);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    return dir;
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'toolgate-discovery-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('uses ./toolgate.config.* (ts, mts, js, mjs: first found) for lint, contract and token', async () => {
    const dir = folder('project', {
      'package.json': JSON.stringify({ type: 'module', devDependencies: { toolgate: '^0.1.0' } }),
      'toolgate.config.ts': notesConfig('from-ts'),
      'toolgate.config.mjs': 'export default 42;\n',
    });
    const lint = await runCommand(BIN, ['lint'], { cwd: dir });
    expect(lint).toMatchObject({ code: 0, stderr: '' });
    expect(lint.stdout).toContain('3 tool(s) checked');
    const exported = await runCommand(BIN, ['contract', 'export'], { cwd: dir });
    expect(exported.stderr).toBe('');
    const tools = (JSON.parse(exported.stdout) as { tools: { name: string }[] }).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['notes_create', 'notes_get', 'operations_get']);
    // The token is minted with the key of the data dir that config names.
    const token = await runCommand(BIN, TOKEN_ARGS, { cwd: dir });
    expect(token).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(join(dir, 'from-ts')).length).toBeGreaterThan(0);
    expect(existsSync(join(dir, '.toolgate'))).toBe(false);
  });

  test('--config, then TOOLGATE_CONFIG, come before a config in the folder', async () => {
    const dir = folder('both', { 'toolgate.config.mjs': notesConfig('found') });
    writeFileSync(join(root, 'elsewhere.config.mjs'), notesConfig('named'));
    await runCommand(BIN, [...TOKEN_ARGS, '--config', '../elsewhere.config.mjs'], { cwd: dir });
    await runCommand(BIN, TOKEN_ARGS, { cwd: dir, env: { TOOLGATE_CONFIG: '../elsewhere.config.mjs' } });
    expect(existsSync(join(root, 'named'))).toBe(true);
    expect(existsSync(join(dir, 'found'))).toBe(false);
    expect(discoverConfig(undefined, { cwd: dir, env: {} })).toEqual({
      kind: 'file',
      file: join(dir, 'toolgate.config.mjs'),
      from: 'discovered',
    });
    expect(CONFIG_FILE_NAMES).toEqual([
      'toolgate.config.ts',
      'toolgate.config.mts',
      'toolgate.config.js',
      'toolgate.config.mjs',
    ]);
  });

  test('with no config, every command that needs tools refuses with the fix and changes nothing', async () => {
    const dir = folder('team', {
      'package.json': JSON.stringify({ name: 'team-tools', dependencies: { toolgate: '^0.1.0' } }),
    });
    const notesFile = NOTES.replace('file://', '');
    const old = await runCommand(BIN, ['contract', 'export', '--config', notesFile]);
    writeFileSync(join(root, 'old.contract.json'), old.stdout);
    const commands = [
      ['serve', '--port', '0'],
      ['lint'],
      ['contract', 'export'],
      ['contract', 'diff', '../old.contract.json'],
      ['policy', 'validate'],
      ['demo', 'tokens'],
    ];
    for (const args of commands) {
      const result = await runCommand(BIN, args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toBe(
        `toolgate ${args[0] === 'serve' || args[0] === 'lint' ? args[0] : args.slice(0, 2).join(' ')}: ` +
          `no toolgate.config.* in ${dir}: nothing to work on.\n` +
          '  Fix: add toolgate.config.ts there (npx toolgate init writes one; export default defineConfig({ tools: [...] })) or pass --config FILE.\n',
      );
    }
    expect(readdirSync(dir)).toEqual(['package.json']);
    // A token needs no tools: it is minted with the default data dir's key.
    const token = await runCommand(BIN, TOKEN_ARGS, { cwd: dir });
    expect(token).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(dir, '.toolgate'))).toBe(true);
  }, 60_000);

  test('a command given only contract files needs no config', async () => {
    const dir = folder('files-only', {
      'package.json': JSON.stringify({ dependencies: { toolgate: '^0.1.0' } }),
    });
    const notesFile = NOTES.replace('file://', '');
    const exported = await runCommand(BIN, ['contract', 'export', '--config', notesFile]);
    writeFileSync(join(dir, 'contract.json'), exported.stdout);
    const lint = await runCommand(BIN, ['lint', 'contract.json'], { cwd: dir });
    expect(lint).toMatchObject({ code: 0, stderr: '' });
    const diff = await runCommand(BIN, ['contract', 'diff', 'contract.json', 'contract.json'], { cwd: dir });
    expect(diff).toMatchObject({ code: 0, stderr: '' });
  });
});
