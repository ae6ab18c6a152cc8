import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCommand, startServing } from '../../../../test/support/serve-process.ts';
import type { App } from '../../src/app/create-app.ts';
import { ServeHooks } from '../../src/extensions/serve-hooks.ts';
import type { ToolgateExtension } from '../../src/index.ts';

const BIN = join(import.meta.dirname, '../../../../bin/toolgate.mjs');
const NOTES = join(import.meta.dirname, '../../../../test/config/fixtures/notes.config.mjs');
const DEMO = join(import.meta.dirname, '../../../../toolgate.config.ts');
const dir = mkdtempSync(join(tmpdir(), 'toolgate-serve-extensions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a config's extensions around serving", () => {
  test('--enable-test-api without an extension that has a test API refuses in one line, before serving anything', async () => {
    const dataDir = join(dir, 'notes-data');
    const result = await runCommand(BIN, [
      'serve',
      '--config',
      NOTES,
      '--enable-test-api',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `toolgate serve: --enable-test-api: no extension of the config ${NOTES} provides a test API ` +
        "(the simulation kit's does: extensions: [simulationExtension] from @toolgate/simulation)\n",
    });
  });

  test('demo tokens without an extension offering principals says so, exit 2', async () => {
    const result = await runCommand(BIN, ['demo', 'tokens', '--config', NOTES, '--data-dir', join(dir, 'd')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`no extension of the config ${NOTES} offers demo principals`);
  });

  test("the demo's config brings the kit: the banner's ready token, and the test API mounted", async () => {
    const serving = await startServing(BIN, [
      '--config',
      DEMO,
      '--enable-test-api',
      '--port',
      '0',
      '--data-dir',
      join(dir, 'demo'),
    ]);
    try {
      expect(serving.output()).toMatch(/Try it as acme-customer-alice .*\n[\s\S]*TOKEN=ey/);
      const origin = new URL(serving.url).origin;
      // Mounted: without a token the test API answers 401, not 404.
      expect((await fetch(`${origin}/test-api/fixtures`)).status).toBe(401);
    } finally {
      await serving.stop();
    }
    const plain = await startServing(BIN, [
      '--config',
      NOTES,
      '--port',
      '0',
      '--data-dir',
      join(dir, 'notes'),
    ]);
    try {
      expect(plain.output()).toContain('Mint a dev token for this server');
    } finally {
      await plain.stop();
    }
  }, 60_000);

  test('hooks run in the order the extensions are named; a hook left out or answering null adds nothing', async () => {
    const seeded: string[] = [];
    const app = {} as App;
    const named = (name: string, lines: string[] | null): ToolgateExtension => ({
      name,
      serve: {
        seed: async () => {
          seeded.push(name);
        },
        principals: () => [{ name, subject: { sub: name, tenant: 't', actor: 'service', scopes: [] } }],
        welcome: async () => lines,
      },
    });
    const hooks = new ServeHooks([named('first', ['one']), { name: 'commands only' }, named('second', null)]);
    await hooks.seed(app);
    expect(seeded).toEqual(['first', 'second']);
    expect(hooks.principals(app).map((p) => p.name)).toEqual(['first', 'second']);
    expect(await hooks.welcome(app, { url: 'http://x/mcp', keys: {} as never, dataDirOption: '' })).toEqual([
      'one',
    ]);
    expect(hooks.offersTestApi).toBe(false);
    expect(await hooks.tokenList(app, { url: 'http://x/mcp', keys: {} as never })).toBeNull();
  });
});
