import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { startTestGateway } from 'toolgate/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { startServing } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/toolgate.mjs');
/** What `npm run build` compiled from packages/toolgate/src/console/browser/ (the test setup builds it first). */
const COMPILED = join(ROOT, 'packages/toolgate/dist/console/browser');
const compiled = (name: string) => readFileSync(join(COMPILED, name), 'utf8');
/** Every browser module the build wrote, by its path under the browser directory. */
const MODULES = readdirSync(COMPILED, { recursive: true, encoding: 'utf8' })
  .map((name) => name.split(sep).join('/'))
  .filter((name) => name.endsWith('.js'))
  .sort();

/** The console's scripts as an origin serves them: status, type, policy and body. */
async function servedScripts(origin: string) {
  return Promise.all(
    MODULES.map(async (name) => {
      const response = await fetch(new URL(`/console/${name}`, origin));
      return {
        name,
        status: response.status,
        type: response.headers.get('content-type'),
        policy: response.headers.get('content-security-policy'),
        body: await response.text(),
      };
    }),
  );
}

function expectCompiledScripts(served: Awaited<ReturnType<typeof servedScripts>>): void {
  // The entry module, the charts and one module per view at least.
  expect(MODULES).toEqual(
    expect.arrayContaining(['app.js', 'charts.js', 'dom.js', 'views/home.js', 'views/queue.js']),
  );
  for (const script of served) {
    expect(script, script.name).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    expect(script.policy).toContain("script-src 'self'");
    expect(script.body).toBe(compiled(script.name));
    // Every module a script imports is served under the name it asks for, and none is TypeScript.
    expect(script.body, script.name).not.toMatch(/from '\.\.?\/[\w/-]+\.ts'/);
    for (const [, path] of script.body.matchAll(/from '(\.\.?\/[\w/.-]+)'/g)) {
      const target = new URL(path!, `http://console/${script.name}`).pathname.slice(1);
      expect(MODULES, `${script.name} imports ${path}`).toContain(target);
    }
  }
  const app = served.find((s) => s.name === 'app.js')!;
  expect(app.body).toContain("from './views/home.js'");
  expect(served.find((s) => s.name === 'views/queue.js')!.body).toContain("from '../charts.js'");
}

describe("the console's scripts are the compiled browser modules", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-console-scripts-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a gateway running from the TypeScript sources serves them', async () => {
    const gw = await startTestGateway({ app: { backgroundJobs: false } });
    try {
      expectCompiledScripts(await servedScripts(gw.origin));
    } finally {
      await gw.close();
    }
  });

  test('`toolgate serve` running the built package serves them', async () => {
    const serving = await startServing(BIN, ['--port', '0', '--data-dir', dataDir, '--no-seed']);
    try {
      expectCompiledScripts(await servedScripts(new URL(serving.url).origin));
    } finally {
      await serving.stop();
    }
  });
});
