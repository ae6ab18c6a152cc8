import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContractDocument } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evaluationEvidence } from '../support/release-evidence.ts';
import { startServing } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/toolgate.mjs');

const CONFIG = `import { defineConfig, defineTool, outcome } from 'toolgate';
import { z } from 'zod';

export default defineConfig({
  tools: [
    defineTool({
      name: 'greeting_get',
      title: 'Read the greeting',
      description: 'Returns the greeting for a caller by name.',
      kind: 'read',
      version: '1.0.0',
      input: z.strictObject({ name: z.string().min(1).max(40).describe('Who to greet.') }),
      output: z.strictObject({ text: z.string().describe('The greeting.') }),
      errors: [],
      scopes: ['greeting:read'],
      timeoutMs: 2000,
      examples: [],
      async handler(input) {
        return outcome.completed({ text: 'Hello, ' + input.name + '!' });
      },
    }),
  ],
});
`;

/**
 * A release pins a commit, so it must be the code: `contract release` refuses a checkout whose tracked
 * files differ from its commit, and `serve --release` refuses to serve a clean record from one. Files
 * git does not track (evaluation results, logs) change neither.
 */
describe('a release and the git checkout it pins', () => {
  let dir: string;
  let project: string;
  const git = (...args: string[]) => execFileSync('git', ['-C', project, ...args], { encoding: 'utf8' });
  const toolgate = (...args: string[]) => {
    const run = spawnSync(process.execPath, [BIN, ...args], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn' },
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const exported = () => {
    const run = toolgate('contract', 'export', '--config', 'toolgate.config.mjs');
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ContractDocument & { implementation: Record<string, unknown> };
  };
  const cut = (name: string) => {
    const results = join(dir, `${name}-results.json`);
    writeFileSync(results, JSON.stringify(evaluationEvidence(exported())));
    const out = join(dir, `${name}.json`);
    const args = ['--config', 'toolgate.config.mjs', '--results', results, '--approved-by', 'Dana Ruiz'];
    return { out, run: toolgate('contract', 'release', ...args, '--out', out) };
  };
  const serve = (release: string) => [
    '--config',
    'toolgate.config.mjs',
    '--port',
    '0',
    '--data-dir',
    join(dir, 'data'),
    '--release',
    release,
  ];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-release-checkout-'));
    project = join(dir, 'greeting-service');
    execFileSync('git', ['init', '-q', project]);
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    writeFileSync(join(project, '.gitignore'), 'node_modules\n');
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'greeting-service', version: '1.0.0', type: 'module', devDependencies: { toolgate: '0.1.0', '@toolgate/eval': '0.1.0' } })}\n`,
    );
    writeFileSync(join(project, 'toolgate.config.mjs'), CONFIG);
    git('add', '.');
    git('-c', 'user.name=Dana Ruiz', '-c', 'user.email=dana@example.com', 'commit', '-qm', 'first');
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('an untracked file leaves the checkout clean: the release pins the commit and serves', async () => {
    writeFileSync(join(project, 'eval-results.json'), '{}\n');
    const commit = git('rev-parse', 'HEAD').trim();
    expect(exported().implementation).toMatchObject({ commit, dirty: false });
    const { out, run } = cut('clean');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).implementation).toMatchObject({ commit, dirty: false });
    const gateway = await startServing(BIN, serve(out), { cwd: project });
    await gateway.stop();
  });

  test('a changed tracked file: no release is cut, and the clean record is not served', () => {
    appendFileSync(join(project, 'toolgate.config.mjs'), '// tried a change\n');
    try {
      expect(exported().implementation.dirty).toBe(true);
      const { out, run } = cut('dirty');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('has uncommitted changes to tracked files');
      expect(existsSync(out)).toBe(false);
      const refused = toolgate('serve', ...serve(join(dir, 'clean.json')));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('refusing to start');
      expect(refused.stderr).toMatch(/checkout differs: commit [0-9a-f]{12} has uncommitted changes/);
    } finally {
      git('checkout', '--', 'toolgate.config.mjs');
    }
  });
});
