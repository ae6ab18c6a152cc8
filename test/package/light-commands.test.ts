import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'toolgate-light-'));
const HOOK = join(dir, 'record-packages.mjs');
const REPORT = join(dir, 'packages.json');

// Records every package the command loads, written when it exits.
writeFileSync(
  HOOK,
  `import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const packages = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
    if (match) packages.add(match[1]);
    // This repository's packages, by their real paths: the framework's files, the others by name and file.
    const own = /\\/packages\\/([^/]+)\\/dist\\/(.+)\\.js$/.exec(resolved.url);
    if (own) packages.add(own[1] === 'toolgate' ? \`dist/\${own[2]}\` : \`@toolgate/\${own[1]}/\${own[2]}\`);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(process.env.PACKAGES_REPORT, JSON.stringify([...packages].sort())));
`,
);

function packagesLoadedBy(args: readonly string[], cwd = ROOT): string[] {
  const run = spawnSync(process.execPath, ['--import', HOOK, join(ROOT, 'bin/toolgate.mjs'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PACKAGES_REPORT: REPORT },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(readFileSync(REPORT, 'utf8')) as string[];
}

/** What only serving needs: the database drivers, the MCP SDK's server and schemas, ajv, logging, metrics. */
const SERVING = [
  'pg',
  'better-sqlite3',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
  'ajv',
  'pino',
  'prom-client',
];

/**
 * The commands that do not serve start in a fraction of `serve`'s time because they load none of what
 * serving needs; a shared constant imported from the wrong module is enough to pull it all in.
 */
describe('commands that do not serve', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('token without a config loads nothing serving needs', () => {
    // Run outside this repository, whose toolgate.config.ts (the demo) the token would be for.
    const loaded = packagesLoadedBy(
      ['token', '--sub', 'u', '--tenant', 't', '--actor', 'customer', '--data-dir', dir],
      dir,
    );
    expect(loaded.filter((name) => SERVING.includes(name))).toEqual([]);
    // Nor the config loader and tool registry (no --config given), token verification, the harness or the kit.
    expect(
      loaded.filter((name) =>
        /^(dist\/(contract\/|config\/load-config|auth\/token-verifier)|@toolgate\/)/.test(name),
      ),
    ).toEqual([]);
  });

  test('lint of a contract file loads nothing serving needs but the SDK validator that judges examples', () => {
    const loaded = packagesLoadedBy(['lint', 'contracts/toolgate.contract.json']);
    // Examples are judged by the MCP SDK's ajv, as a client judges arguments: its validation module only,
    // which carries ajv inside it (the SDK's schemas, in @modelcontextprotocol/core, stay unloaded).
    expect(loaded.filter((name) => SERVING.includes(name))).toEqual(['@modelcontextprotocol/server']);
  });

  test('lint loads neither the evaluation harness nor its model SDKs, nor the demo', () => {
    const loaded = packagesLoadedBy(['lint', 'contracts/toolgate.contract.json']);
    expect(loaded.filter((name) => /^(ai|@ai-sdk\/.*|@toolgate\/(eval|domains)\/.*)$/.test(name))).toEqual(
      [],
    );
    // The check sees what a command loads: the CLI's own entry.
    expect(loaded).toContain('dist/cli/main');
  });

  test("eval --help loads the harness's command definitions and their choices, nothing of its work", () => {
    const loaded = packagesLoadedBy(['eval', '--help']);
    expect(loaded.filter((name) => /^(ai|@ai-sdk\/.*|@toolgate\/domains\/.*)$/.test(name))).toEqual([]);
    expect(loaded.filter((name) => name.startsWith('@toolgate/'))).toEqual([
      '@toolgate/eval/agents/adversarial-policies',
      '@toolgate/eval/agents/eval-agent',
      '@toolgate/eval/agents/llm-providers',
      '@toolgate/eval/cli/contract-release-command',
      '@toolgate/eval/cli/eval-command',
      '@toolgate/eval/toolgate-extension',
    ]);
    // Nor the framework's public entry: the definitions use its types alone.
    expect(loaded.filter((name) => SERVING.includes(name) || name === 'dist/index')).toEqual([]);
  });
});
