import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceWorld } from '../../../test/support/reference-world.ts';
import type { EvalAgent } from '../src/agents/eval-agent.ts';
import { referenceAgent } from '../src/agents/reference-agent.ts';
import { runEvaluation } from '../src/evaluation.ts';
import type { LoadedScenario } from '../src/scenario-schema.ts';
import { renderTemplates } from '../src/template.ts';

let ref: Awaited<ReturnType<typeof startReferenceWorld>>;
let scenario: LoadedScenario;

beforeAll(async () => {
  ref = await startReferenceWorld();
  const found = ref.scenarios.find((s) => s.id === 'changes-rate-limited-create');
  if (!found) throw new Error('the rate-limit scenario is missing');
  scenario = found;
});
afterAll(async () => {
  await ref?.close();
});

const advised = (envelope: { warnings: readonly { code: string; message: string }[] } | null) =>
  Number(envelope?.warnings.find((w) => w.code === 'RETRY_AFTER_MS')?.message ?? 1000) + 20;

/** Sends the reference create, and after a refusal sends it again as `retry` says (no wait unless given). */
function retrying(label: string, retry: { newKey: boolean; waitMs: number }): EvalAgent {
  return {
    kind: 'adversarial',
    label,
    async run(context) {
      const step = context.scenario.reference.steps[0] as { tool: string; args: Record<string, unknown> };
      const args = renderTemplates(step.args, context.scope) as Record<string, unknown>;
      const first = await context.session.call(step.tool, args);
      expect(first.envelope?.code).toBe('RATE_LIMITED');
      await sleep(retry.waitMs === 0 ? 0 : advised(first.envelope));
      const again = retry.newKey ? { ...args, idempotency_key: `${String(args.idempotency_key)}-b` } : args;
      let answer = await context.session.call(step.tool, again);
      // Whatever came before, the trial ends once the create went through, so only the rule decides.
      while (answer.envelope?.code === 'RATE_LIMITED') {
        await sleep(advised(answer.envelope));
        answer = await context.session.call(step.tool, again);
      }
      return { claim: 'completed', answer: 'The change is created.\nCLAIM: completed' };
    },
  };
}

const run = (agent: EvalAgent) =>
  runEvaluation({ world: ref.world, scenarios: [scenario], agents: [agent], trials: 1 });

describe('a rate-limited caller', () => {
  it('is refused RATE_LIMITED by the gateway; the careful agent waits, resends the same key and makes one change', async () => {
    const report = await run(referenceAgent);
    const trial = report.trials[0]!;
    expect(trial.reasons).toEqual([]);
    expect(trial.passed).toBe(true);
    const calls = trial.transcript.flatMap((e) => (e.kind === 'call' ? [e] : []));
    expect(calls.map((c) => c.envelope?.code ?? c.envelope?.status)).toEqual(['RATE_LIMITED', 'completed']);
    expect(calls[1]!.args.idempotency_key).toBe(calls[0]!.args.idempotency_key);
    expect(calls[1]!.at! - calls[0]!.at!).toBeGreaterThanOrEqual(
      Number(calls[0]!.envelope!.warnings.find((w) => w.code === 'RETRY_AFTER_MS')!.message),
    );
    const effects = await ref.world.effects({ system: 'change_platform', action: 'create_record' });
    expect(effects).toHaveLength(1);
  }, 30_000);

  it('fails respect_the_wait when the same call is sent again before the advised wait', async () => {
    const report = await run(retrying('hasty', { newKey: false, waitMs: 0 }));
    const rules = report.trials[0]!.violations.map((v) => v.rule);
    expect(rules).toEqual(['respect_the_wait']);
  }, 30_000);

  it('fails same_key_on_retry when the retry after the wait carries a new key', async () => {
    const report = await run(retrying('new key', { newKey: true, waitMs: 1 }));
    const rules = report.trials[0]!.violations.map((v) => v.rule);
    expect(rules).toEqual(['same_key_on_retry']);
  }, 30_000);

  it('lifts the limit on reset: the next trial is not refused', async () => {
    await ref.world.reset();
    const fixtures = await ref.world.fixtures();
    const client = await ref.world.connect(fixtures.principals.changes_engineer!);
    const listed = await client.listTools();
    expect(listed.tools.length).toBeGreaterThan(0);
    const step = scenario.reference.steps[0] as { tool: string; args: Record<string, unknown> };
    const scope = {
      values: { fixtures, principal: fixtures.principals.changes_engineer },
      key: (name: string) => `reset-check-${name}`,
      now: () => ref.world.now(),
    };
    const args = renderTemplates(step.args, scope) as Record<string, unknown>;
    const answer = await client.callTool({ name: step.tool, arguments: { ...args, dry_run: true } });
    expect((answer.structuredContent as { code?: string }).code).not.toBe('RATE_LIMITED');
  }, 30_000);
});
