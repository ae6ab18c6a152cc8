import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContractDocument } from 'toolgate/server';
import { contractSha256 } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServing } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/toolgate.mjs');

const SCHEMA = `entity Group;
entity Principal in [Group] {
  subject: String,
  tenant: String,
  actor: String,
  scopes: Set<String>,
  groups: Set<String>,
};
entity Tool {
  tenant: String,
};
action operations_get, greeting_get appliesTo { principal: Principal, resource: Tool };
`;

const policy = (reason: string) => `@id("greetings")
@reason("${reason}")
permit (
  principal,
  action in [Action::"operations_get", Action::"greeting_get"],
  resource is Tool
)
when { resource.tenant == principal.tenant };
`;

const config = (
  description: string,
  holdHours: number,
) => `import { defineConfig, defineException, defineTool, outcome } from 'toolgate';
import { z } from 'zod';

const quietHours = defineException({
  kind: 'greeting_quiet_hours',
  title: 'Greetings in quiet hours',
  description: 'Lets one tenant be greeted during quiet hours.',
  target: z.strictObject({ tenant_id: z.string().min(1).max(40).describe('Tenant greeted.') }),
  grantScope: 'greeting:approve',
  maxDurationSeconds: ${holdHours * 3600},
});

const greet = defineTool({
  name: 'greeting_get',
  title: 'Read the greeting',
  description: '${description}',
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
});

export default defineConfig({ tools: [greet], exceptions: [quietHours], policy: './policies' });
`;

interface ProjectFiles {
  readonly version: string;
  readonly description: string;
  readonly reason: string;
  /** The longest grant of the project's exception kind. */
  readonly holdHours: number;
}

const FIRST: ProjectFiles = {
  version: '1.0.0',
  description: 'Returns the greeting the service shows a caller by name.',
  reason: 'Only callers of the same tenant read greetings.',
  holdHours: 24,
};

/**
 * `toolgate serve --release`: a small team project (package.json, config, policy directory) in a
 * temporary folder, released with `contract release`, served pinned to the record, then changed one
 * part at a time; the gateway starts only on the files of the release it is given.
 */
/** What the project installs: the framework, and the harness whose `contract release` cuts the records. */
const DEPENDENCIES = { toolgate: '0.1.0', '@toolgate/eval': '0.1.0' };

describe('toolgate serve --release', () => {
  let dir: string;
  let project: string;
  let configFile: string;

  const toolgate = (args: readonly string[], env: Record<string, string> = {}) => {
    const run = spawnSync(process.execPath, [BIN, ...args], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn', ...env },
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const write = (files: ProjectFiles) => {
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'greeting-service', version: files.version, type: 'module', devDependencies: DEPENDENCIES })}\n`,
    );
    writeFileSync(configFile, config(files.description, files.holdHours));
    writeFileSync(join(project, 'policies', 'greeting.cedar'), policy(files.reason));
  };
  /** Results of an evaluation of the contract served now, reduced to what a release reads. */
  const results = (name: string) => {
    const exported = toolgate(['contract', 'export', '--config', configFile]);
    expect(exported.code, exported.stderr).toBe(0);
    const score = {
      trials: 1,
      passed: 1,
      successRate: 1,
      unsafeEffects: 0,
      unsafeClaims: 0,
      backendInterventions: 0,
    };
    const file = join(dir, `${name}-results.json`);
    writeFileSync(
      file,
      JSON.stringify({
        format: 'toolgate-eval/2',
        agent: 'reference',
        labels: ['reference'],
        trialsPerScenario: 1,
        startedAt: '2026-01-01T00:00:00.000Z',
        overall: score,
        bySplit: { dev: score },
        release: {
          contractSha256: contractSha256(JSON.parse(exported.stdout) as ContractDocument),
          scenarioSetSha256: 'f'.repeat(64),
          scenarioCount: 1,
          implementation: 'toolgate 0.1.0',
        },
      }),
    );
    return file;
  };
  const cut = (name: string) => {
    const out = join(dir, `${name}.json`);
    const run = toolgate([
      'contract',
      'release',
      '--config',
      configFile,
      '--results',
      results(name),
      '--approved-by',
      'Dana Ruiz',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    return { file: out, record: JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown> };
  };
  const refused = (release: string, env: Record<string, string> = {}) =>
    toolgate(
      ['serve', '--config', configFile, '--port', '0', '--data-dir', join(dir, 'data'), '--release', release],
      env,
    );
  const served = (release: string) =>
    startServing(
      BIN,
      ['--config', configFile, '--port', '0', '--data-dir', join(dir, 'data'), '--release', release],
      {
        cwd: project,
      },
    );

  let first: { file: string; record: Record<string, unknown> };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-serve-release-'));
    project = join(dir, 'greeting-service');
    mkdirSync(join(project, 'policies'), { recursive: true });
    // The project's dependencies as npm installs them: toolgate and zod.
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    writeFileSync(join(project, 'policies', 'greeting.cedarschema'), SCHEMA);
    configFile = join(project, 'toolgate.config.mjs');
    write(FIRST);
    first = cut('first');
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a release names the project and the policy set it was cut from', () => {
    expect(first.record).toMatchObject({
      format: 'toolgate-release/2',
      release_id: expect.stringMatching(/^rel_[0-9a-f]{16}$/),
      implementation: { name: 'greeting-service', version: '1.0.0', commit: null, dirty: null },
      policy_set: {
        policy_version: expect.stringMatching(/^[0-9a-f]{12}$/),
        files: [
          { path: 'greeting.cedarschema', sha256: expect.any(String) },
          { path: 'greeting.cedar', sha256: expect.any(String) },
        ],
      },
    });
  });

  test('serving the files released starts, and shows the release on /readyz and /metrics', async () => {
    const gateway = await served(first.file);
    try {
      const origin = new URL(gateway.url).origin;
      const ready = await fetch(`${origin}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', release_id: first.record.release_id });
      const metrics = await (await fetch(`${origin}/metrics`)).text();
      expect(metrics).toContain(`toolgate_release_info{release_id="${first.record.release_id}"} 1`);
    } finally {
      await gateway.stop();
    }
  });

  test('a changed tool description refuses to start, exit 2, naming the contract difference', () => {
    write({ ...FIRST, description: 'Returns the greeting the service shows a caller, by name.' });
    try {
      const run = refused(first.file);
      expect(run.code).toBe(2);
      const id = first.record.release_id as string;
      const sha = (first.record.contract as { sha256: string }).sha256;
      expect(run.stderr).toContain(`release ${id}: contract differs: record ${sha.slice(0, 12)}, served `);
      expect(run.stderr).toContain(`release ${id}: tools changed: greeting_get`);
      expect(run.stderr).not.toContain('policy');
      expect(run.stdout).not.toContain('MCP Streamable HTTP');
    } finally {
      write(FIRST);
    }
  });

  test('a changed policy file refuses to start, naming the file (TOOLGATE_RELEASE names the record)', () => {
    write({ ...FIRST, reason: 'Greetings stay within a tenant.' });
    try {
      const run = toolgate(
        ['serve', '--config', configFile, '--port', '0', '--data-dir', join(dir, 'data')],
        {
          TOOLGATE_RELEASE: first.file,
        },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `release ${first.record.release_id}: policy set differs: record policy_version `,
      );
      expect(run.stderr).toContain('policy file greeting.cedar changed');
      expect(run.stderr).not.toContain('contract differs');
    } finally {
      write(FIRST);
    }
  });

  test("a changed exception kind refuses to start, naming the module's governance, not the tools", () => {
    write({ ...FIRST, holdHours: 72 });
    try {
      const run = refused(first.file);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `release ${first.record.release_id}: governance differs: exception kinds changed: greeting_quiet_hours`,
      );
      expect(run.stderr).not.toContain('tools changed');
    } finally {
      write(FIRST);
    }
  });

  test('a bumped package version refuses to start, naming the implementation; every difference is named', () => {
    write({ ...FIRST, version: '1.1.0' });
    const alone = refused(first.file);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      'implementation differs: record greeting-service@1.0.0, served greeting-service@1.1.0',
    );
    write({
      version: '1.1.0',
      description: 'Returns the greeting for a caller by name.',
      reason: 'Same tenant only.',
      holdHours: 24,
    });
    try {
      const all = refused(first.file);
      expect(all.code).toBe(2);
      for (const difference of [
        'contract differs',
        'tools changed: greeting_get',
        'implementation differs',
        'policy file greeting.cedar changed',
      ]) {
        expect(all.stderr).toContain(difference);
      }
    } finally {
      write(FIRST);
    }
  });

  test('rollback: the previous record with its files starts again, the next one refuses them', async () => {
    const next: ProjectFiles = {
      version: '1.1.0',
      description: 'Returns the greeting for a caller by name.',
      reason: 'Same tenant only.',
      holdHours: 24,
    };
    write(next);
    const second = cut('second');
    expect(second.record.release_id).not.toBe(first.record.release_id);
    expect(refused(first.file).code).toBe(2);
    // Roll back: the previous files (a checkout of the commit released) served with the previous record.
    write(FIRST);
    expect(refused(second.file).code).toBe(2);
    const gateway = await served(first.file);
    try {
      const ready = await fetch(`${new URL(gateway.url).origin}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', release_id: first.record.release_id });
    } finally {
      await gateway.stop();
    }
  });

  test('a toolgate-release/1 record pins the contract alone; an edited /2 record is refused', async () => {
    const { release_id: _id, implementation: _i, policy_set: _p, ...rest } = first.record;
    const older = join(dir, 'older.json');
    writeFileSync(older, JSON.stringify({ ...rest, format: 'toolgate-release/1' }));
    write({ ...FIRST, version: '1.0.1', reason: 'Greetings stay within a tenant.' });
    try {
      const gateway = await served(older);
      try {
        const ready = (await (await fetch(`${new URL(gateway.url).origin}/readyz`)).json()) as {
          release_id: string;
        };
        expect(ready.release_id).toMatch(/^rel_[0-9a-f]{16}$/);
      } finally {
        await gateway.stop();
      }
    } finally {
      write(FIRST);
    }
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify({ ...first.record, approved_by: 'Someone Else' }));
    const run = refused(edited);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the record was changed after it was cut');
  });
});
