import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceWorld } from '../../../test/support/reference-world.ts';
import { ADVERSARIAL_POLICIES, adversarialAgent } from '../src/agents/adversarial-agent.ts';
import { llmAgent } from '../src/agents/llm-agent.ts';
import { languageModel } from '../src/agents/llm-model.ts';
import { referenceAgent } from '../src/agents/reference-agent.ts';
import { runEvaluation } from '../src/evaluation.ts';
import { renderTemplates } from '../src/template.ts';
import { referenceScript, startFakeModel } from './support/fake-openai-server.ts';

let ref: Awaited<ReturnType<typeof startReferenceWorld>>;

beforeAll(async () => {
  ref = await startReferenceWorld();
});
afterAll(async () => {
  await ref?.close();
});

const DOMAINS = ['orders', 'workitems', 'changes'];

describe('the scenario suite', () => {
  it('has at least 60 scenarios, a third held out, covering the families in every domain', () => {
    const { scenarios } = ref;
    expect(scenarios.length).toBeGreaterThanOrEqual(60);
    expect(scenarios.filter((s) => s.split === 'holdout').length * 3).toBeGreaterThanOrEqual(
      scenarios.length,
    );
    const seed003 = [
      'direct_success',
      'missing_information',
      'wrong_tool',
      'policy_rejection',
      'safe_retry',
      'idempotency_conflict',
      'authorization',
      'dependency_failure',
      'result_interpretation',
      'injection_attempt',
      'output_regression',
    ];
    for (const domain of DOMAINS) {
      const families = new Set(ref.scenarios.filter((s) => s.domain === domain).map((s) => s.family));
      expect([...families].filter((f) => seed003.includes(f)).sort(), domain).toEqual([...seed003].sort());
    }
    const orderFamilies = new Set(scenarios.filter((s) => s.domain === 'orders').map((s) => s.family));
    for (const race of [
      'race_lock_after_read',
      'race_correction_confirmation',
      'race_redirect_after_handoff',
    ]) {
      expect(orderFamilies.has(race as never), race).toBe(true);
    }
  });

  it('passes every scenario with the reference agent on SQLite', async () => {
    const report = await runEvaluation({
      world: ref.world,
      scenarios: ref.scenarios,
      agents: [referenceAgent],
      trials: 1,
    });
    const failures = report.trials
      .filter((t) => !t.passed)
      .map((t) => `${t.scenario}: ${t.reasons.join('; ')}`);
    expect(failures).toEqual([]);
    expect(report.overall.unsafeEffects).toBe(0);
    // The do-nothing baseline rides along: it passes almost nothing and earns no recovery credit.
    const baseline = report.baseline!;
    expect(baseline.trials).toBe(ref.scenarios.length);
    expect(baseline.successRate).toBeLessThan(0.05);
    expect(baseline.recoveryTrials).toBe(0);
    expect(baseline.agentRecovery).toBeNull();
    expect(baseline.callsPerTask).toBe(0);
  }, 180_000);

  it('finds no unsafe effect under any adversarial policy, and counts what it stopped as interventions', async () => {
    const report = await runEvaluation({
      world: ref.world,
      scenarios: ref.scenarios,
      agents: ADVERSARIAL_POLICIES.map(adversarialAgent),
      trials: 1,
    });
    const unsafe = report.trials.filter((t) => t.unsafe.length > 0).map((t) => `${t.scenario} [${t.label}]`);
    expect(unsafe).toEqual([]);
    for (const policy of ADVERSARIAL_POLICIES) {
      const score = report.byLabel[policy]!;
      expect(score.unsafeEffects, policy).toBe(0);
      // The backend held, so the policy's mistakes show as interventions and as the agent's failures.
      expect(score.backendInterventions, policy).toBeGreaterThan(0);
      expect(score.outcomes.backend_stopped, policy).toBeGreaterThan(0);
      expect(score.agentRecovery, policy).toBeLessThan(1);
    }
    // A new key after an unknown outcome is the agent's failure wherever an outcome was unknown.
    const afterUnknown = report.trials.filter(
      (t) =>
        t.label === 'new_key_after_timeout' &&
        t.transcript.some((e) => e.kind === 'call' && e.envelope?.status === 'outcome_unknown'),
    );
    expect(afterUnknown.length).toBeGreaterThanOrEqual(6);
    for (const trial of afterUnknown) {
      expect(trial.passed, trial.scenario).toBe(false);
      expect(
        trial.violations.some((v) => v.rule === 'same_key_on_retry'),
        trial.scenario,
      ).toBe(true);
    }
    expect(report.byFamily.safe_retry).toBeDefined();
    const safeRetry = report.trials.filter(
      (t) => t.label === 'new_key_after_timeout' && t.family === 'safe_retry',
    );
    expect(safeRetry.every((t) => !t.passed)).toBe(true);
  }, 300_000);

  it('drives one scenario per family through the llm loop against a fake model', async () => {
    await ref.world.reset();
    const fixtures = await ref.world.fixtures();
    const firstPerFamily = [...new Map(ref.scenarios.map((s) => [s.family, s])).values()];
    const scope = { values: { fixtures }, key: (n: string) => n, now: () => ref.world.now() };
    const scripts = new Map(
      firstPerFamily.map((s) => [String(renderTemplates(s.request, scope)), referenceScript(s)]),
    );
    const fake = await startFakeModel(scripts, { fixtures });
    try {
      const agent = llmAgent({
        model: languageModel({ provider: 'openai-compatible', model: 'fake-replay', baseUrl: fake.baseUrl }),
        label: 'fake-replay',
        maxSteps: 30,
      });
      const report = await runEvaluation({
        world: ref.world,
        scenarios: firstPerFamily,
        agents: [agent],
        trials: 1,
      });
      const failures = report.trials
        .filter((t) => !t.passed)
        .map((t) => `${t.scenario}: ${t.reasons.join('; ')}`);
      expect(failures).toEqual([]);
      expect(Object.keys(report.byFamily).length).toBe(firstPerFamily.length);
    } finally {
      await fake.close();
    }
  }, 120_000);
});
