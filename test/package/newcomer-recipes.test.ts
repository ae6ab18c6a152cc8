import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { INSPECTOR } from '../support/inspector-cli.ts';
import { type Background, type LineResult, Shell, shellRecipes } from '../support/newcomer-shell.ts';
import { connectWithToken } from '../support/serve-process.ts';
import { NPM_ENV } from './packed-tarball.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  'docs/build-your-own-tool.md',
  'packages/toolgate/templates/init/README.md',
  'examples/billing/README.md',
] as const;
type Doc = (typeof DOCS)[number];
const text = Object.fromEntries(DOCS.map((doc) => [doc, readFileSync(join(ROOT, doc), 'utf8')])) as Record<
  Doc,
  string
>;
const recipesOf = Object.fromEntries(DOCS.map((doc) => [doc, shellRecipes(text[doc])])) as Record<
  Doc,
  string[]
>;

/**
 * Recipes this file does not run, each with where it runs instead or why it cannot run here. Every
 * other recipe of the four docs runs below, as written, from the folder the doc says.
 */
const NOT_HERE: Readonly<Record<string, string>> = {
  'npm ci && npm test': 'ci: .ci/run is this line on a clean clone',
  'npx -y toolgate init my-tools': 'unpublished: the package is not on the npm registry yet',
  'cd my-tools && npm install': 'unpublished: follows the line above',
  'npx -y toolgate token --sub ada --tenant acme --actor customer --scopes "tasks:read tasks:write operations:read" --ttl 2592000':
    "test/package/scaffold.test.ts: the project README's desktop (stdio) recipe",
  'PORT=41931 BILLING_DB=/tmp/billing.db BILLING_ENABLE_RESET=1 node service/server.ts &':
    'examples/billing/test/billing-eval.test.ts: passes two trials of each scenario',
  'BILLING_URL=http://127.0.0.1:41931 npx toolgate eval --config toolgate.config.ts --scenarios eval/scenarios --trials 2':
    'examples/billing/test/billing-eval.test.ts: passes two trials of each scenario',
  'npx toolgate eval --config toolgate.config.ts --scenarios eval/scenarios':
    'examples/billing/test/billing-eval.test.ts: passes two trials of each scenario',
  'npx toolgate eval --agent llm --model gpt-4.1-mini --base-url https://api.openai.com/v1 --trials 3':
    'model: needs a model endpoint (packages/eval/test/llm-agent.test.ts drives --agent llm against a local one)',
  'npx toolgate eval --agent llm --model qwen3:8b --base-url http://127.0.0.1:11434/v1 --compare eval/results/last':
    'model: needs a model endpoint (packages/eval/test/llm-agent.test.ts drives --agent llm against a local one)',
  'npx toolgate serve --release releases/1.4.0.json':
    'test/contract-artifacts/serve-release.test.ts: serving the files released starts',
};
/** Command synopses (placeholders in brackets or capitals), not recipes. */
const SYNOPSIS = /\[[^\]]*\]|\b(FILE|DIR|NAME|OLD|NEW)\b/;

const ran = new Set<string>();

/** The recipe exactly as `doc` writes it (the test fails if the doc no longer does), with `swaps` made. */
function recipe(doc: Doc, line: string, swaps: readonly (readonly [string, string])[] = []): string {
  expect(recipesOf[doc], `${doc} no longer has the recipe`).toContain(line);
  ran.add(line);
  return swaps.reduce((written, [from, to]) => written.replaceAll(from, to), line);
}

function ok(result: LineResult, line: string): LineResult {
  expect(result.code, `${line}\n${result.output.slice(-4000)}`).toBe(0);
  return result;
}

/**
 * The newcomer run: a checkout copied to a fresh folder (no node_modules, no dist), then every recipe of
 * the README, the build-your-own guide, the scaffold's README and the billing example's README, typed
 * line by line in one shell per terminal. The only changes to what the docs write: the ports (the docs'
 * own variables choose free ones, and the URLs name them), `/path/to/toolgate` (this copy), the
 * Inspector the checkout pins where the doc would download one, and the id of a refund the run made.
 */
describe('a newcomer following the docs, recipe by recipe', () => {
  let work: string;
  let checkout: string;
  let env: Record<string, string>;
  const running: Background[] = [];
  const inspector = `node ${INSPECTOR}`;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'toolgate-newcomer-'));
    checkout = join(work, 'toolgate');
    mkdirSync(join(work, 'home'));
    mkdirSync(join(work, 'elsewhere'));
    cpSync(ROOT, checkout, {
      recursive: true,
      filter: (source) =>
        !/\/(node_modules|dist|\.git|\.toolgate|results)$|\.tgz$|\.sqlite$/.test(source.slice(ROOT.length)),
    });
    env = {
      ...(Object.fromEntries(
        Object.entries(NPM_ENV).filter(([name]) => !/^VITEST|^NODE_OPTIONS$|^FORCE_COLOR$|^npm_/.test(name)),
      ) as Record<string, string>),
      HOME: join(work, 'home'),
      // The machine's npm cache, which a new HOME would otherwise hide; offline first, as a reinstall is.
      npm_config_cache: join(process.env.HOME ?? '/root', '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
      NO_COLOR: '1',
      TOOLGATE_LOG_LEVEL: 'warn',
    };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    // Two installed checkouts and three projects: removing them takes a while on a busy machine.
    rmSync(work, { recursive: true, force: true });
  }, 600_000);

  const shell = (cwd: string, more: Record<string, string> = {}) => new Shell(cwd, { ...env, ...more }, work);
  const start = async (sh: Shell, line: string, ready: RegExp) => {
    const server = await sh.start(line, ready);
    running.push(server);
    return server;
  };

  test("the guide's first step packs the framework in the checkout, and init and install make the project", () => {
    const sh = shell(work);
    const guide = 'docs/build-your-own-tool.md';
    for (const line of [
      '(cd toolgate && npm ci && npm pack -w packages/toolgate)',
      'npx -y --package=./toolgate/toolgate-0.1.0.tgz toolgate init my-tools',
      'cd my-tools',
      'npm install ../toolgate/toolgate-0.1.0.tgz',
    ])
      ok(sh.run(recipe(guide, line)), line);
    expect(sh.cwd).toBe(join(work, 'my-tools'));
    const manifest = JSON.parse(readFileSync(join(work, 'my-tools/package.json'), 'utf8'));
    expect(manifest.dependencies.toolgate).toBe('file:../toolgate/toolgate-0.1.0.tgz');
  }, 600_000);

  test("the project's recipes: install, test, lint, contract, diff, the profile, and serve", () => {
    const sh = shell(join(work, 'my-tools'));
    for (const [doc, line] of [
      ['packages/toolgate/templates/init/README.md', 'npm install'],
      ['docs/build-your-own-tool.md', 'npm test'],
      ['docs/build-your-own-tool.md', 'npm run lint'],
      ['docs/build-your-own-tool.md', 'npm run contract'],
      ['docs/build-your-own-tool.md', 'npx -y toolgate contract diff contract.json'],
      ['docs/build-your-own-tool.md', 'npx -y toolgate lint --profile openai-strict'],
    ] as const)
      ok(sh.run(recipe(doc, line)), line);
    expect(existsSync(join(work, 'my-tools/contract.json'))).toBe(true);
  }, 300_000);

  test('the service and the gateway in terminals of their own, called from the Inspector twice: one task', async () => {
    const [servicePort, gatewayPort] = [await freePort(), await freePort()];
    const ports = { PORT: String(servicePort), TASKS_URL: `http://127.0.0.1:${servicePort}` };
    const guide = 'docs/build-your-own-tool.md';
    await start(shell(join(work, 'my-tools'), ports), recipe(guide, 'npm run service'), /listening on/);
    const gateway = await start(
      shell(join(work, 'my-tools'), { ...ports, TOOLGATE_PORT: String(gatewayPort) }),
      recipe(guide, 'npm start'),
      /MCP Streamable HTTP at (\S+)/,
    );
    const url = gateway.match[1]!;
    const sh = shell(join(work, 'my-tools'), { TOOLGATE_PORT: String(gatewayPort) });
    ok(sh.run(recipe(guide, 'TOKEN=$(npm run --silent token)')), 'token');
    expect(sh.env.TOKEN).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const call = recipe(
      guide,
      'npx -y @modelcontextprotocol/inspector --cli http://127.0.0.1:8787/mcp --transport http --header "Authorization: Bearer $TOKEN" --method tools/call --tool-name tasks_create --tool-arg "title=Call the plumber" --tool-arg idempotency_key=task-create-000000001',
      [
        ['npx -y @modelcontextprotocol/inspector', inspector],
        ['http://127.0.0.1:8787/mcp', url],
      ],
    );
    const first = JSON.parse(ok(sh.run(call), call).stdout).structuredContent;
    const again = JSON.parse(ok(sh.run(call), call).stdout).structuredContent;
    expect(first).toMatchObject({ status: 'completed', replayed: false });
    expect(again).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
    // The service holds the one task, and no second one.
    const task = (id: string) => fetch(`http://127.0.0.1:${servicePort}/tasks/${id}?owner=acme/ada`);
    expect(first.result.task_id).toBe('task_1');
    expect(await (await task('task_1')).json()).toMatchObject({ title: 'Call the plumber' });
    expect((await task('task_2')).status).toBe(404);
    // The README's `npx -y toolgate serve` in a project of one's own: the same gateway, found by itself.
    const own = await start(
      shell(join(work, 'my-tools'), { ...ports, TOOLGATE_PORT: String(await freePort()) }),
      recipe('README.md', 'npx -y toolgate serve'),
      /MCP Streamable HTTP at (\S+)/,
    );
    expect(own.output()).not.toMatch(/demo/i);
  }, 300_000);

  test("the README's quick start serves the demo; its token and the Inspector list the tools", async () => {
    const port = String(await freePort());
    const sh = shell(checkout, { TOOLGATE_PORT: port });
    const demo = await start(sh, recipe('README.md', 'npm ci && npm start'), /MCP Streamable HTTP at (\S+)/);
    const token = ok(
      sh.run(
        recipe(
          'README.md',
          'npx toolgate token --sub cus_acme_alice --tenant acme --actor customer --scopes "orders:read orders:write operations:read"',
        ),
      ),
      'token',
    ).stdout.trim();
    sh.env.TOKEN = token;
    const listed = ok(
      sh.run(
        recipe(
          'README.md',
          'npx @modelcontextprotocol/inspector --cli http://127.0.0.1:8787/mcp --transport http --header "Authorization: Bearer $TOKEN" --method tools/list',
          [['http://127.0.0.1:8787/mcp', demo.match[1]!]],
        ),
      ),
      'inspector',
    );
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('orders_get');
    for (const line of ['npx toolgate eval --agent reference', 'npx toolgate eval --agent adversarial'])
      ok(sh.run(recipe('README.md', line)), line);
    const contract = readFileSync(join(checkout, 'contracts/toolgate.contract.json'), 'utf8');
    ok(sh.run(recipe('README.md', 'npm run contract:update')), 'contract:update');
    expect(readFileSync(join(checkout, 'contracts/toolgate.contract.json'), 'utf8')).toBe(contract);

    // The desktop recipe, from another folder: the checkout's own command mints, the client starts stdio.
    const elsewhere = shell(join(work, 'elsewhere'));
    const desktop = ok(
      elsewhere.run(
        recipe(
          'README.md',
          'node /path/to/toolgate/bin/toolgate.mjs token --sub you --tenant acme --actor customer --scopes "orders:read" --ttl 2592000 --data-dir /path/to/toolgate/.toolgate',
          [['/path/to/toolgate', checkout]],
        ),
      ),
      'desktop token',
    ).stdout.trim();
    const json = /A Claude-Desktop-style configuration:\n\n```json\n([\s\S]+?)\n```/.exec(
      text['README.md'],
    )?.[1];
    const server = (JSON.parse(json!) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers.toolgate!;
    expect(server.command).toBe('node');
    const client = new Client({ name: 'desktop', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: server.args.map((arg) => arg.replaceAll('/path/to/toolgate', checkout)),
        cwd: join(work, 'elsewhere'),
        env: { PATH: env.PATH ?? '', HOME: env.HOME!, TOOLGATE_TOKEN: desktop },
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('orders_get');
    } finally {
      await client.close();
    }
  }, 600_000);

  test("the billing example's README: copy, pack, install and its tests, then serve it and decide a refund", async () => {
    const billing = 'examples/billing/README.md';
    const sh = shell(checkout);
    for (const line of [
      'cp -r examples/billing ~/billing',
      'npm pack --pack-destination ~ -w packages/toolgate -w packages/simulation -w packages/eval',
      'cd ~/billing && npm install ~/toolgate-0.1.0.tgz ~/toolgate-simulation-0.1.0.tgz ~/toolgate-eval-0.1.0.tgz',
      'npm test',
    ])
      ok(sh.run(recipe(billing, line)), line);
    expect(sh.cwd).toBe(join(work, 'home/billing'));

    const [servicePort, gatewayPort] = [await freePort(), await freePort()];
    const ports = {
      PORT: String(servicePort),
      BILLING_URL: `http://127.0.0.1:${servicePort}`,
      TOOLGATE_PORT: String(gatewayPort),
    };
    const copy = join(work, 'home/billing');
    await start(shell(copy, ports), recipe(billing, 'npm run start:service'), /listening on/);
    const gateway = await start(
      shell(copy, ports),
      recipe(billing, 'npm run start:gateway'),
      /MCP Streamable HTTP at (\S+)/,
    );
    const url = gateway.match[1]!;
    const terminal = shell(copy, ports);
    ok(terminal.run(recipe(billing, 'TOKEN=$(npm run --silent token)')), 'token');
    const read = recipe(
      billing,
      'npx @modelcontextprotocol/inspector --cli http://127.0.0.1:8787/mcp --transport http --header "Authorization: Bearer $TOKEN" --method tools/call --tool-name billing_get_invoice --tool-arg invoice_id=inv_acme_0001',
      [
        ['npx @modelcontextprotocol/inspector', inspector],
        ['http://127.0.0.1:8787/mcp', url],
      ],
    );
    expect(JSON.parse(ok(terminal.run(read), read).stdout).structuredContent).toMatchObject({
      status: 'completed',
      result: { invoice_id: 'inv_acme_0001' },
    });
    // A refund to decide, asked for over MCP, then the README's curl as the finance team.
    const client = await connectWithToken(url, terminal.env.TOKEN!);
    try {
      const asked = (
        await client.callTool({
          name: 'billing_request_refund',
          arguments: {
            invoice_id: 'inv_acme_0003',
            amount_cents: 500,
            reason: 'Charged twice',
            idempotency_key: 'newcomer-refund-000001',
          },
        })
      ).structuredContent as { status: string; result: { refund_request_id: string } };
      expect(asked.status).toBe('submitted');
      const decide = recipe(
        billing,
        `curl -X POST 'http://127.0.0.1:4100/admin/refund-requests/rr_…/decide?tenant=acme' -H 'content-type: application/json' -d '{"decision":"approved"}'`,
        [
          ['127.0.0.1:4100', `127.0.0.1:${servicePort}`],
          ['rr_…', asked.result.refund_request_id],
        ],
      );
      ok(terminal.run(decide), decide);
      const after = (
        await client.callTool({ name: 'billing_get_invoice', arguments: { invoice_id: 'inv_acme_0003' } })
      ).structuredContent as { result: { refund_requests: { refund_request_id: string; status: string }[] } };
      expect(after.result.refund_requests).toContainEqual(
        expect.objectContaining({ refund_request_id: asked.result.refund_request_id, status: 'approved' }),
      );
    } finally {
      await client.close();
    }
  }, 900_000);

  test('every recipe of the four docs ran above, or names where it runs or why it cannot', () => {
    const missing: string[] = [];
    for (const doc of DOCS) {
      for (const line of recipesOf[doc]) {
        if (ran.has(line) || SYNOPSIS.test(line)) continue;
        const where = NOT_HERE[line];
        if (where === undefined) {
          missing.push(`${doc}: ${line}`);
          continue;
        }
        const [file, title] = where.split(': ');
        if (file!.endsWith('.test.ts')) {
          expect(readFileSync(join(ROOT, file!), 'utf8'), where).toContain(title!);
        }
      }
    }
    expect(missing).toEqual([]);
    // No entry outlives its recipe.
    const all = new Set(DOCS.flatMap((doc) => recipesOf[doc]));
    expect(Object.keys(NOT_HERE).filter((line) => !all.has(line))).toEqual([]);
  });
});
