import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startTestGateway } from '../../packages/toolgate/src/testing/test-gateway.ts';
import { startServing } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/toolgate.mjs');
/** What `npm run build` compiled from packages/toolgate/src/console/browser/ (the test setup builds it first). */
const compiled = (name: string) =>
  readFileSync(join(ROOT, 'packages/toolgate/dist/console/browser', name), 'utf8');

/** The console's two scripts as an origin serves them: status, type, policy and body. */
async function servedScripts(origin: string) {
  return Promise.all(
    ['app.js', 'charts.js'].map(async (name) => {
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
  for (const script of served) {
    expect(script, script.name).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
    expect(script.policy).toContain("script-src 'self'");
    expect(script.body).toBe(compiled(script.name));
  }
  // The browser asks for the charts by the name the console serves them under.
  expect(served[0]!.body).toContain("from './charts.js'");
  expect(served[0]!.body).not.toMatch(/from '\.\/[\w-]+\.ts'/);
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
