import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort as closedPort } from '../../../test/support/free-port.ts';
import { llmAgent } from '../src/agents/llm-agent.ts';
import { languageModel } from '../src/agents/llm-model.ts';
import { runEvaluation } from '../src/evaluation.ts';
import { evalLamps } from './support/lamps-eval.ts';
import { startLampsWorld } from './support/lamps-world.ts';

/** A model endpoint that answers every request the same broken way. */
async function brokenEndpoint(status: number, body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

describe('toolgate eval against a model endpoint that cannot answer', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'toolgate-eval-errored-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('an unreachable endpoint errors every trial, scores nobody and exits 2 with its error', async () => {
    const port = await closedPort();
    const result = await evalLamps(
      [
        '--filter',
        'lamps-direct',
        '--agent',
        'llm',
        '--provider',
        'openai-compatible',
        '--model',
        'nobody-home',
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--out',
        out,
      ],
      { TOOLGATE_EVAL_API_KEY: 'not-needed' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('toolgate eval: every trial errored (1); nothing was scored.');
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}/v1/chat/completions`);
    expect(result.stdout).toContain('0/0 trials passed, 1 errored,');
    expect(result.stdout).not.toContain('0/1 trials passed');
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      overall: { trials: number; errored: number; passed: number };
      trials: { passed: boolean; errored?: string; violations: unknown[] }[];
      scenarios: { trials: number; errored: number }[];
    };
    expect(report.overall).toMatchObject({ trials: 0, errored: 1, passed: 0 });
    expect(report.trials).toHaveLength(1);
    expect(report.trials[0]!.errored).toContain('cannot reach');
    expect(report.trials[0]!.violations).toEqual([]);
    expect(report.scenarios).toMatchObject([{ trials: 0, errored: 1 }]);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('## Errored trials (1, not scored)');
    expect(summary).toContain('## Failures (0)');
  }, 60_000);
});

describe('a model endpoint answering errors', () => {
  let lamps: Awaited<ReturnType<typeof startLampsWorld>>;
  beforeAll(async () => {
    lamps = await startLampsWorld();
  });
  afterAll(() => lamps?.close());

  const cases = [
    {
      what: 'a rate limit',
      status: 429,
      body: '{"error":{"message":"slow down"}}',
      reason: /^rate limited \(HTTP 429\) by http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
    },
    {
      what: 'an HTTP error',
      status: 500,
      body: '{"error":{"message":"upstream broke"}}',
      reason: /^HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
    },
    {
      what: 'a malformed answer',
      status: 200,
      body: '{"choices": "not a list"}',
      reason: /^malformed model answer from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
    },
  ];
  for (const { what, status, body, reason } of cases) {
    test(`${what} marks the trial errored with the reason and changes no score`, async () => {
      const endpoint = await brokenEndpoint(status, body);
      try {
        const scenario = lamps.scenarios.find((s) => s.id === 'lamps-direct')!;
        const report = await runEvaluation({
          world: lamps.world,
          scenarios: [scenario],
          agents: [
            llmAgent({
              model: languageModel({
                provider: 'openai-compatible',
                model: 'm',
                baseUrl: endpoint.url,
                apiKey: 'k',
              }),
              label: 'broken',
              maxSteps: 4,
            }),
          ],
          trials: 2,
          baseline: false,
        });
        expect(report.trials.map((t) => t.errored)).toEqual([
          expect.stringMatching(reason),
          expect.stringMatching(reason),
        ]);
        expect(report.trials.every((t) => !t.passed && t.reasons[0]!.startsWith('errored: '))).toBe(true);
        expect(report.overall).toMatchObject({ trials: 0, errored: 2, passed: 0, successRate: 0 });
        expect(report.passHatK.all).toEqual([]);
        // Nothing was switched: the agent never got to call a tool.
        expect(await lamps.world.effects({ system: 'grid', action: 'switch' })).toHaveLength(0);
      } finally {
        await new Promise<void>((done) => endpoint.server.close(() => done()));
      }
    }, 60_000);
  }
});
