import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectWithToken, runCommand, type ServingProcess, startServing } from '../support/serve-process.ts';

const BIN = join(import.meta.dirname, '../../bin/toolgate.mjs');
const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOTES = join(FIXTURES, 'notes.config.mjs');
const BROKEN = join(FIXTURES, 'broken.config.mjs');

describe('toolgate with a config file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('serve refuses a broken config, naming the file, every broken tool with its rule, and the bad setting', async () => {
    const result = await runCommand(BIN, ['serve', '--config', BROKEN, '--port', '0', '--data-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(BROKEN);
    expect(result.stderr).toContain('tool broken_write: write tool must provide reconcile [reconcile]');
    expect(result.stderr).toContain(
      'tool broken_read: version 1.0 is not semver MAJOR.MINOR.PATCH [version]',
    );
    expect(result.stderr).toMatch(/tool broken_read: input objects must be closed .*\[closed-input\]/);
    expect(result.stderr).toMatch(/prot: not a setting \(allowed: .*port/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test("lint and contract export check only the config's tools (and operations_get), exactly as serve would serve them", async () => {
    const lint = await runCommand(BIN, ['lint', '--config', NOTES, '--json']);
    expect(lint.stderr).toBe('');
    const report = JSON.parse(lint.stdout) as { ok: boolean; findings: { tool: string; rule: string }[] };
    expect(report.findings.filter((f) => f.tool !== 'operations_get')).toEqual([]);
    expect(lint.code).toBe(0);

    const exported = await runCommand(BIN, ['contract', 'export'], { env: { TOOLGATE_CONFIG: NOTES } });
    expect(exported.code).toBe(0);
    const contract = JSON.parse(exported.stdout) as {
      tools: { name: string; contract: Record<string, unknown> }[];
    };
    expect(contract.tools.map((t) => t.name)).toEqual(['notes_create', 'notes_get', 'operations_get']);
  });

  test('token --config mints for the server that config runs (its port), and a flag still wins', async () => {
    const guide = join(import.meta.dirname, '../../docs/examples/build-your-own/toolgate.config.ts');
    const audienceOf = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;
    const base = ['token', '--sub', 'u', '--tenant', 't', '--actor', 'customer', '--data-dir', dir];
    const fromConfig = await runCommand(BIN, [...base, '--config', guide]);
    expect(fromConfig.stderr).toBe('');
    expect(audienceOf(fromConfig.stdout.trim())).toBe('http://127.0.0.1:8788/mcp');
    const fromFlag = await runCommand(BIN, [
      ...base,
      '--config',
      guide,
      '--audience',
      'http://gw.example:9/mcp',
    ]);
    expect(audienceOf(fromFlag.stdout.trim())).toBe('http://gw.example:9/mcp');
  });

  test('a syntax error or a throw in a file the config imports is named by that file and line', async () => {
    const project = join(dir, 'imports');
    mkdirSync(join(project, 'tools'), { recursive: true });
    writeFileSync(
      join(project, 'toolgate.config.ts'),
      "import { broken } from './tools/broken.ts';\nexport default { tools: [broken] };\n",
    );
    writeFileSync(join(project, 'tools/broken.ts'), 'const limit = 3;\nexport const broken = ;\n');
    const syntax = await runCommand(BIN, ['lint'], { cwd: project });
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain(join(project, 'toolgate.config.ts'));
    // Node's own words: the file and line, the error, then the line with a caret under the problem.
    expect(syntax.stderr).toContain('cannot be loaded: tools/broken.ts:2: SyntaxError: Expression expected');
    expect(syntax.stderr).toMatch(/\n {4}export const broken = ;\n {4} +\^/);

    writeFileSync(
      join(project, 'tools/broken.ts'),
      "export const broken = 1;\nif (!process.env.NOPE_URL) throw new TypeError('set NOPE_URL');\n",
    );
    const thrown = await runCommand(BIN, ['lint'], { cwd: project });
    expect(thrown.code).toBe(2);
    expect(thrown.stderr).toContain('cannot be loaded: tools/broken.ts:2:');
    expect(thrown.stderr).toContain('TypeError: set NOPE_URL');
    expect(thrown.stderr).not.toMatch(/\n\s+at /);
  });

  test('a config that serves nothing, or a missing file, is named and refused', async () => {
    const missing = await runCommand(BIN, ['lint', '--config', join(dir, 'nope.mjs')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.mjs');
    expect(missing.stderr).toContain('no such file');
  });

  describe('serving it', () => {
    let serving: ServingProcess;
    let client: Client;
    beforeAll(async () => {
      const dataDir = join(dir, 'serve');
      serving = await startServing(BIN, ['--config', NOTES, '--port', '0', '--data-dir', dataDir]);
      const token = await runCommand(BIN, [
        'token',
        '--sub',
        'u1',
        '--tenant',
        't1',
        '--actor',
        'customer',
        '--scopes',
        'notes:read notes:write operations:read',
        '--data-dir',
        dataDir,
        '--audience',
        serving.url,
      ]);
      client = await connectWithToken(serving.url, token.stdout);
    });
    afterAll(async () => {
      await client?.close();
      await serving?.stop();
    });

    test("only the config's tools and operations_get are served; the demo is not", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['notes_create', 'notes_get', 'operations_get']);
      expect(serving.output()).not.toContain('Dev tokens');
      expect(serving.output()).toContain(`--audience ${serving.url}`);
    });

    test('a write through the config executes once per key, and a retry replays it', async () => {
      const args = { text: 'Call the carrier', idempotency_key: 'config-test-key-0001' };
      const first = (await client.callTool({ name: 'notes_create', arguments: args }))
        .structuredContent as Record<string, unknown>;
      expect(first).toMatchObject({ status: 'completed', replayed: false, result: { executions: 1 } });
      const again = (await client.callTool({ name: 'notes_create', arguments: args })).structuredContent;
      expect(again).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
      const read = (await client.callTool({ name: 'notes_get', arguments: { note_id: 'note_1' } }))
        .structuredContent;
      expect(read).toMatchObject({
        status: 'completed',
        result: { text: 'Call the carrier', executions: 1 },
      });
    });
  });
});
