import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sourceFiles } from '../architecture/import-sites.ts';
import { connectWithToken, runCommand, type ServingProcess, startServing } from '../support/serve-process.ts';
import { NPM_ENV, packedTarballs } from './packed-tarball.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/config/fixtures');
/** The compiled files of the kit, the demo and the harness, as they would sit in the framework's dist/. */
const NOT_FRAMEWORK = ['simulation', 'domains', 'eval'].flatMap((folder) => {
  const src = join(ROOT, 'packages', folder, 'src');
  return sourceFiles(src).map((file) => file.slice(src.length + 1).replace(/\.ts$/, '.js'));
});
const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/toolgate/package.json'), 'utf8')) as {
  version: string;
};
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: NPM_ENV });
/** What npm prints on both streams, for commands whose warnings matter. */
const npmOutput = (args: string[], cwd: string) => {
  const run = spawnSync('npm', args, { cwd, encoding: 'utf8', env: NPM_ENV });
  if (run.status !== 0) throw new Error(`npm ${args.join(' ')}: ${run.stderr}`);
  return `${run.stdout}${run.stderr}`;
};

/** The copy's own vitest, run outside this run's workers and settings. */
function ownTests(copy: string) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^VITEST|^NODE_OPTIONS$|^FORCE_COLOR$/.test(name)),
  );
  return spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--maxWorkers=1'], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
}

/**
 * What a team does: `npm pack` the package, install the tarball into an empty project with their own
 * zod 4, write a config with a read and a write tool, and run it with plain node — no checkout, no tsx.
 */
describe('the packed tarball in a fresh project', () => {
  let dir: string;
  let project: string;
  let bin: string;
  let tarball: string;
  let tarballs: ReturnType<typeof packedTarballs>;
  let installOutput: string;
  let packedManifest: Record<string, unknown>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-pack-'));
    project = join(dir, 'byo');
    tarballs = packedTarballs();
    tarball = tarballs.toolgate;
    packedManifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    );
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'byo', private: true, type: 'module' }),
    );
    installOutput = npmOutput(
      ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'zod@4'],
      project,
    );
    for (const file of ['notes-tools.mjs', 'notes.config.mjs'])
      copyFileSync(join(FIXTURES, file), join(project, file));
    bin = join(project, 'node_modules/toolgate/bin/toolgate.mjs');
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 180_000);

  test('npm pack builds dist/, and the packed package.json carries no scripts, so installing it runs none', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listed).toContain('package/dist/index.js');
    expect(listed).toContain('package/dist/cli/main.js');
    expect(packedManifest.scripts).toBeUndefined();
    expect(packedManifest.bin).toEqual({ toolgate: 'bin/toolgate.mjs' });
    expect(installOutput).not.toMatch(/script|warn/i);
  });

  test("no tarball carries its package's own suites (packages/*/test), only the scaffold's test", () => {
    const suites = Object.entries(tarballs).flatMap(([folder, packed]) =>
      execFileSync('tar', ['-tzf', packed], { encoding: 'utf8' })
        .split('\n')
        .filter((path) => /^package\/test\//.test(path) || /\.test\.ts$/.test(path))
        .map((path) => `${folder}: ${path}`),
    );
    expect(suites).toEqual(['toolgate: package/templates/init/test/tasks.test.ts']);
  });

  test('the framework ships no kit, demo or harness code, lists no model SDK and installs none', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(NOT_FRAMEWORK.length).toBeGreaterThan(150);
    const framework = new Set(
      listed.filter((path) => path.startsWith('package/dist/')).map((p) => p.slice(13)),
    );
    // Only the entry's name is shared (every package has an index.js).
    expect(NOT_FRAMEWORK.filter((file) => file !== 'index.js' && framework.has(file))).toEqual([]);
    expect(framework.has('cli/main.js')).toBe(true);
    expect(listed.filter((path) => /^package\/(policies|src)\//.test(path))).toEqual([]);
    const listedPackages = Object.keys({
      ...(packedManifest.dependencies as object),
      ...(packedManifest.peerDependencies as object),
    });
    expect(listedPackages.filter((name) => /^(ai|@ai-sdk\/.*)$/.test(name))).toEqual([]);
    for (const sdk of ['ai', '@ai-sdk', '@toolgate'])
      expect(existsSync(join(project, 'node_modules', sdk)), sdk).toBe(false);
    // The check looks where npm installs: the framework's own dependencies are there.
    expect(existsSync(join(project, 'node_modules/commander'))).toBe(true);
  });

  test('the installed command prints its version; the package loads its entries and refuses the rest', async () => {
    const printed = await runCommand(bin, ['--version'], { cwd: project });
    expect(printed).toMatchObject({ code: 0, stdout: `${version}\n` });
    const deep = await runCommand(
      '--input-type=module',
      ['-e', "await import('toolgate/dist/app/create-app.js')"],
      { cwd: project },
    );
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    // The three documented entries, and no other: what toolgate/internal carried is in them.
    const entries = await runCommand(
      '--input-type=module',
      [
        '-e',
        "const s = await import('toolgate/server'); const t = await import('toolgate/testing'); console.log(typeof s.createApp, typeof s.mintToken, typeof t.startTestGateway);",
      ],
      { cwd: project },
    );
    expect(entries).toMatchObject({ code: 0, stdout: 'function function function\n' });
    // The removed entry's name is put together, so the boundary test's import scan does not read it here.
    const removedEntry = ['toolgate', 'internal'].join('/');
    const removed = await runCommand('--input-type=module', ['-e', `await import('${removedEntry}')`], {
      cwd: project,
    });
    expect(removed.code).not.toBe(0);
    expect(removed.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/toolgate/package.json'), 'utf8'));
    expect(Object.keys(installed.exports).sort()).toEqual(['.', './package.json', './server', './testing']);
    // The framework names none of the kit, the harness or the demo: they plug in as extensions.
    expect(installed.peerDependencies).toEqual({ zod: '^4.0.0' });
    expect(installed.peerDependenciesMeta).toBeUndefined();
    // The packed manifest points at compiled code only: the repository's source condition is gone.
    expect(JSON.stringify(installed.exports)).not.toContain('toolgate-source');
  });

  test("tools built with the project's own zod export the same contract as inside the repository", async () => {
    const outside = await runCommand(bin, ['contract', 'export', '--config', 'notes.config.mjs'], {
      cwd: project,
    });
    const inside = await runCommand(join(ROOT, 'bin/toolgate.mjs'), [
      'contract',
      'export',
      '--config',
      join(FIXTURES, 'notes.config.mjs'),
    ]);
    expect(outside.code).toBe(0);
    // The same tools and governance; the implementation is each project's own (its package.json).
    const { implementation: theirs, ...outsideContract } = JSON.parse(outside.stdout);
    const { implementation: _ours, ...insideContract } = JSON.parse(inside.stdout);
    expect(outsideContract).toEqual(insideContract);
    expect(theirs).toMatchObject({ name: 'byo', framework: `toolgate ${version}` });
  });

  describe('served from the project', () => {
    let serving: ServingProcess;
    let client: Client;
    beforeAll(async () => {
      serving = await startServing(
        bin,
        ['--config', 'notes.config.mjs', '--port', '0', '--data-dir', 'data'],
        {
          cwd: project,
        },
      );
      const token = await runCommand(
        bin,
        [
          'token',
          '--config',
          'notes.config.mjs',
          '--sub',
          'u1',
          '--tenant',
          't1',
          '--actor',
          'customer',
          '--scopes',
          'notes:read notes:write operations:read',
        ],
        { cwd: project, env: { TOOLGATE_DATA_DIR: 'data', TOOLGATE_AUDIENCE: serving.url } },
      );
      client = await connectWithToken(serving.url, token.stdout);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await serving?.stop();
    });

    test('a same-key retry over MCP replays the first answer and the write executes once', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['notes_create', 'notes_get', 'operations_get']);
      const args = { text: 'Packed and served', idempotency_key: 'packed-install-key-01' };
      const first = (await client.callTool({ name: 'notes_create', arguments: args })).structuredContent as {
        operation_id: string;
      };
      expect(first).toMatchObject({ status: 'completed', replayed: false, result: { note_id: 'note_1' } });
      const retry = (await client.callTool({ name: 'notes_create', arguments: args })).structuredContent;
      expect(retry).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
      const read = (await client.callTool({ name: 'notes_get', arguments: { note_id: 'note_1' } }))
        .structuredContent;
      expect(read).toMatchObject({ status: 'completed', result: { executions: 1 } });
    });
  });

  describe('the billing example, copied where a team puts it', () => {
    let copy: string;
    beforeAll(() => {
      const example = join(ROOT, 'examples/billing');
      copy = join(dir, 'billing');
      cpSync(example, copy, {
        recursive: true,
        filter: (source) =>
          !/^\/(node_modules|\.toolgate|billing\.sqlite)/.test(source.slice(example.length)),
      });
      // The example's eval test runs `toolgate eval`: the harness and the kit it builds on come too.
      npm(
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          tarball,
          tarballs.simulation,
          tarballs.eval,
        ],
        copy,
      );
    }, 240_000);

    test('passes its own tests with the tarball installed, nothing of this repository in reach', () => {
      const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
      expect(manifest.dependencies.toolgate).toMatch(/^file:.*\.tgz$/);
      expect(manifest.devDependencies['@toolgate/eval']).toMatch(/^file:.*\.tgz$/);
      expect(manifest.devDependencies['@toolgate/simulation']).toMatch(/^file:.*\.tgz$/);
      const run = ownTests(copy);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/Tests\s+11 passed/);
    }, 240_000);
  });

  describe('the refunds example, copied where a team puts it, with the framework alone', () => {
    let copy: string;
    beforeAll(() => {
      const example = join(ROOT, 'examples/refunds');
      copy = join(dir, 'refunds');
      cpSync(example, copy, {
        recursive: true,
        filter: (source) => !/^\/(node_modules|\.toolgate)/.test(source.slice(example.length)),
      });
      // No simulation kit and no harness: an exception kind and an approver scope need neither.
      npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], copy);
    }, 240_000);

    test('its own exception kind and approver scope pass its tests from the installed tarball', () => {
      const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
      expect(manifest.dependencies.toolgate).toMatch(/^file:.*\.tgz$/);
      for (const absent of ['@toolgate/simulation', '@toolgate/eval', '@toolgate/domains'])
        expect(existsSync(join(copy, 'node_modules', absent)), absent).toBe(false);
      const run = ownTests(copy);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/Tests\s+7 passed/);
    }, 240_000);
  });
});
