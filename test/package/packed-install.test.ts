import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectWithToken, runCommand, type ServingProcess, startServing } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/config/fixtures');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

/**
 * What a team does: `npm pack` the package, install the tarball into an empty project with their own
 * zod 4, write a config with a read and a write tool, and run it with plain node — no checkout, no tsx.
 */
describe('the packed tarball in a fresh project', () => {
  let dir: string;
  let project: string;
  let bin: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-pack-'));
    project = join(dir, 'byo');
    // dist/ is built by the test setup; --ignore-scripts keeps pack from rebuilding it under other tests' feet.
    const [packed] = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT),
    ) as {
      filename: string;
    }[];
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'byo', private: true, type: 'module' }),
    );
    npm(
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed!.filename), 'zod@4'],
      project,
    );
    for (const file of ['notes-tools.mjs', 'notes.config.mjs'])
      copyFileSync(join(FIXTURES, file), join(project, file));
    bin = join(project, 'node_modules/toolgate/bin/toolgate.mjs');
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the installed command prints its version and the package refuses deep imports', async () => {
    const printed = await runCommand(bin, ['--version'], { cwd: project });
    expect(printed).toMatchObject({ code: 0, stdout: `${version}\n` });
    const deep = await runCommand(
      '--input-type=module',
      ['-e', "await import('toolgate/dist/app/create-app.js')"],
      { cwd: project },
    );
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/toolgate/package.json'), 'utf8'));
    expect(installed.peerDependencies).toEqual({ zod: '^4.0.0' });
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
    expect(JSON.parse(outside.stdout)).toEqual(JSON.parse(inside.stdout));
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
});
