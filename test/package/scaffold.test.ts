import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INSPECTOR } from '../support/inspector-cli.ts';
import { connectWithToken, runCommand, type ServingProcess, startServing } from '../support/serve-process.ts';
import { NPM_ENV, packedTarballs } from './packed-tarball.ts';

/** This run's own settings (workers, colours) kept away from the project's vitest. */
const PROJECT_ENV = {
  ...Object.fromEntries(
    Object.entries(NPM_ENV).filter(([name]) => !/^VITEST|^NODE_OPTIONS$|^FORCE_COLOR$/.test(name)),
  ),
  NO_COLOR: '1',
};

/** Runs a command as a newcomer types it; answers its exit code and everything it printed. */
function run(command: string, args: readonly string[], cwd: string) {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8', env: PROJECT_ENV });
  return { code: done.status, output: `${done.stdout}${done.stderr}` };
}

/**
 * The guide's path, from an empty folder with only the packed tarball: `npx -y toolgate init`, install,
 * then every script the project comes with, and `serve` answering tools/list. Nothing prints a warning.
 */
describe('a project scaffolded by toolgate init', () => {
  let dir: string;
  let project: string;
  let tarball: string;
  let tarballs: ReturnType<typeof packedTarballs>;
  let init: { code: number | null; output: string };
  let install: { code: number | null; output: string };
  beforeAll(() => {
    tarballs = packedTarballs();
    tarball = tarballs.toolgate;
    dir = mkdtempSync(join(tmpdir(), 'toolgate-init-'));
    project = join(dir, 'my-tools');
    init = run('npx', ['-y', `--package=${tarball}`, 'toolgate', 'init', 'my-tools'], dir);
    install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

  test('init writes the project, named after its folder, and installing it prints no warning', () => {
    expect(init.code, init.output).toBe(0);
    expect(init.output).not.toMatch(/warn/i);
    expect(readdirSync(project).sort()).toEqual([
      '.gitignore',
      'README.md',
      'node_modules',
      'package-lock.json',
      'package.json',
      'service',
      'test',
      'toolgate.config.ts',
      'tools',
      'tsconfig.json',
    ]);
    expect(install.code, install.output).toBe(0);
    expect(install.output).not.toMatch(/warn|script/i);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('my-tools');
    expect(manifest.dependencies.toolgate).toMatch(/^file:.*\.tgz$/);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['toolgate', 'zod']);
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['typescript', 'vitest']));
  });

  test('a type error in a tool fails npm run typecheck and npm test, naming the file and line', () => {
    expect(run('npm', ['run', '--silent', 'typecheck'], project).code).toBe(0);
    const broken = join(project, 'tools/typo.ts');
    writeFileSync(
      broken,
      "import { taskView } from './task-wire.ts';\nexport const title: number = taskView.parse({}).title;\n",
    );
    try {
      const checked = run('npm', ['run', '--silent', 'typecheck'], project);
      expect(checked.code).not.toBe(0);
      expect(checked.output).toMatch(/tools\/typo\.ts[:(]2/);
      const tested = run('npm', ['test', '--silent'], project);
      expect(tested.code).not.toBe(0);
      expect(tested.output).toMatch(/tools\/typo\.ts[:(]2/);
    } finally {
      rmSync(broken);
    }
  }, 120_000);

  test('init refuses a folder that is not empty and writes nothing into it', () => {
    const taken = join(dir, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine');
    const refused = run(
      process.execPath,
      [join(project, 'node_modules/toolgate/bin/toolgate.mjs'), 'init', 'taken'],
      dir,
    );
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('is not empty (notes.txt)');
    expect(refused.output).toContain('Nothing was written.');
    expect(readdirSync(taken)).toEqual(['notes.txt']);
  });

  test('npm run lint passes the two tools with no warning, and npm run contract exports them', () => {
    const lint = run('npm', ['run', '--silent', 'lint'], project);
    expect(lint.code, lint.output).toBe(0);
    expect(lint.output).toMatch(/^3 tool\(s\) checked against \d+ rules: 0 error\(s\), 0 warning\(s\)\.\n$/);
    // The guide's `npx -y toolgate lint --profile openai-strict`, and the other two providers.
    for (const profile of ['openai-strict', 'anthropic', 'gemini']) {
      const checked = run('npx', ['-y', 'toolgate', 'lint', '--profile', profile], project);
      expect(checked.code, checked.output).toBe(0);
      expect(checked.output).toContain(`checked against the ${profile} profile`);
      expect(checked.output).toContain(': 0 error(s), 0 warning(s).');
    }
    const contract = run('npm', ['run', '--silent', 'contract'], project);
    expect(contract.code, contract.output).toBe(0);
    expect(contract.output).not.toMatch(/warn/i);
    const exported = JSON.parse(readFileSync(join(project, 'contract.json'), 'utf8')) as {
      tools: { name: string }[];
    };
    expect(exported.tools.map((tool) => tool.name).sort()).toEqual([
      'operations_get',
      'tasks_create',
      'tasks_get',
    ]);
  });

  test("npm test runs the project's own tests: a lost answer, one task", () => {
    const tested = run('npm', ['test', '--silent'], project);
    expect(tested.code, tested.output).toBe(0);
    expect(tested.output).toMatch(/Tests\s+2 passed/);
    expect(tested.output).not.toMatch(/warn/i);
  }, 120_000);

  describe('served from the project with the discovered config', () => {
    let serving: ServingProcess;
    let client: Client;
    let token: string;
    beforeAll(async () => {
      const bin = join(project, 'node_modules/toolgate/bin/toolgate.mjs');
      serving = await startServing(bin, ['--port', '0', '--data-dir', 'data'], { cwd: project });
      const printed = await runCommand(
        bin,
        [
          'token',
          '--sub',
          'ada',
          '--tenant',
          'acme',
          '--actor',
          'customer',
          '--scopes',
          'tasks:read tasks:write operations:read',
        ],
        { cwd: project, env: { TOOLGATE_DATA_DIR: 'data', TOOLGATE_AUDIENCE: serving.url } },
      );
      token = printed.stdout.trim();
      client = await connectWithToken(serving.url, token);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await serving?.stop();
    });

    test('serve answers tools/list with the scaffold tools and prints no warning', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['operations_get', 'tasks_create', 'tasks_get']);
      expect(serving.output()).not.toMatch(/warn|demo/i);
      expect(existsSync(join(project, 'data'))).toBe(true);
    });

    test("the guide's Inspector command lists the tools and prints no portability warning", () => {
      // The guide's `npx -y @modelcontextprotocol/inspector --cli ...`, with the Inspector this
      // repository pins (no download in the run).
      const listed = spawnSync(
        process.execPath,
        [
          INSPECTOR,
          '--cli',
          serving.url,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${token}`,
          '--method',
          'tools/list',
        ],
        { cwd: project, encoding: 'utf8', env: PROJECT_ENV },
      );
      expect(listed.status, listed.stderr).toBe(0);
      const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
      expect(tools.map((tool) => tool.name).sort()).toEqual(['operations_get', 'tasks_create', 'tasks_get']);
      expect(listed.stderr).not.toMatch(/Schema portability|warn/i);
    }, 60_000);
  });

  test("the project README's desktop (stdio) recipe starts, lists the tools and prints no warning", async () => {
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## From a desktop client (stdio)'));
    const tokenCommand = /```sh\n(npx[^\n]+ token [^\n]+)\n```/.exec(section)?.[1];
    const json = /```json\n([\s\S]+?)\n```/.exec(section)?.[1];
    expect(tokenCommand, 'README: a token command after the stdio heading').toBeDefined();
    expect(json, 'README: a client configuration after the stdio heading').toBeDefined();
    const words = [...tokenCommand!.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    expect(words.slice(0, 3)).toEqual(['npx', '-y', 'toolgate']);
    const bin = join(project, 'node_modules/toolgate/bin/toolgate.mjs');
    const minted = await runCommand(bin, words.slice(3), { cwd: project });
    expect(minted.code, minted.stderr).toBe(0);
    // The one line token prints for a 30-day lifetime is the note naming the flag the recipe passes.
    expect(minted.stderr.trim().split('\n')).toHaveLength(1);
    expect(minted.stderr).toContain('--max-token-lifetime-seconds');
    const config = JSON.parse(json!) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = config.mcpServers['my-tools']!;
    expect(server.command).toBe('node');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: server.args.map((arg) => arg.replace('/path/to/my-tools', project)),
      // A desktop client starts the server from its own folder, not the project's.
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...server.env, TOOLGATE_TOKEN: minted.stdout.trim() },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const desktop = new Client({ name: 'desktop-recipe', version: '0' });
    await desktop.connect(transport);
    try {
      const { tools } = await desktop.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['operations_get', 'tasks_create', 'tasks_get']);
      const read = await desktop.callTool({
        name: 'operations_get',
        arguments: { operation_id: 'op_missing' },
      });
      expect(read.structuredContent).toMatchObject({ tool: 'operations_get' });
    } finally {
      await desktop.close();
    }
    expect(stderr).not.toMatch(/warn|demo/i);
    expect(existsSync(join(project, '.toolgate'))).toBe(true);
  }, 60_000);

  test('installing the harness and the kit beside it runs no install script and prints no warning', () => {
    const added = run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', tarballs.simulation, tarballs.eval],
      project,
    );
    expect(added.code, added.output).toBe(0);
    expect(added.output).not.toMatch(/warn|script/i);
  }, 240_000);
});
