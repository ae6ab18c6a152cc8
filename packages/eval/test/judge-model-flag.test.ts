import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseModelSpec } from '../src/agents/llm-providers.ts';
import { type FakeJudgeServer, type JudgeQuestion, startFakeJudge } from './support/fake-judge-server.ts';
import { evalLamps } from './support/lamps-eval.ts';

let judge: FakeJudgeServer;

/** Says the message asserts nothing unless it says it updated something: the lamps reference answers do not. */
const answer = ({ prompt }: JudgeQuestion) =>
  JSON.stringify({ verdict: /updated/.test(prompt) ? 'completed' : 'no_claim', quote: '' });

beforeAll(async () => {
  judge = await startFakeJudge(answer);
});
afterAll(() => judge?.close());

describe('toolgate eval --judge-model', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'toolgate-eval-judge-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const evalLampsDirect = (extra: string[], env: Record<string, string> = {}) =>
    evalLamps(['--filter', 'lamps-direct', ...extra], env);

  test('asks the judge after each trial and writes its opinion apart in every report', async () => {
    const server = judge;
    const result = await evalLampsDirect([
      '--judge-model',
      'openai-compatible:fake-judge',
      '--judge-base-url',
      server.baseUrl,
      '--out',
      out,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'second opinion (openai-compatible:fake-judge, advisory): agreed with the claim reader on 1/1 answered, 0 unavailable',
    );
    expect(server.questions).toHaveLength(1);
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      about: Record<string, string>;
      trials: {
        scenario: string;
        passed: boolean;
        judge?: { model: string; verdict: string; agreesWithClaimReader: boolean };
      }[];
      secondOpinion?: { agreementRate: number };
    };
    expect(report.about.judge).toBe('openai-compatible:fake-judge (advisory)');
    expect(report.trials).toMatchObject([
      {
        scenario: 'lamps-direct',
        passed: true,
        judge: { model: 'openai-compatible:fake-judge', verdict: 'no_claim', agreesWithClaimReader: true },
      },
    ]);
    expect(report.secondOpinion?.agreementRate).toBe(1);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('## Second opinion (advisory)');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
      'Second opinion, advisory (openai-compatible:fake-judge): no_claim',
    );
  });

  test('a judge without an endpoint is bad input, before any trial runs', async () => {
    const result = await evalLampsDirect(['--judge-model', 'fake-judge', '--out', join(out, 'none')], {
      TOOLGATE_EVAL_BASE_URL: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'toolgate eval --judge-model: an OpenAI-compatible endpoint needs a base URL',
    );
  });

  test('the spec takes a provider prefix only when it names a provider', () => {
    expect(parseModelSpec('anthropic:claude-haiku-4-5', 'openai-compatible')).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
    });
    expect(parseModelSpec('llama3.1:8b', 'openai-compatible')).toEqual({
      provider: 'openai-compatible',
      model: 'llama3.1:8b',
    });
    expect(parseModelSpec('gpt-4o-mini', 'anthropic')).toEqual({
      provider: 'anthropic',
      model: 'gpt-4o-mini',
    });
  });
});
