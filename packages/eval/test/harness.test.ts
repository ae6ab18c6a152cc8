import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERSARIAL_POLICIES, adversarialAgent } from '../src/agents/adversarial-agent.ts';
import { referenceAgent } from '../src/agents/reference-agent.ts';
import { runEvaluation } from '../src/evaluation.ts';
import type { LoadedScenario } from '../src/scenario-schema.ts';
import { runTrial } from '../src/trial-runner.ts';
import { startLampsWorld } from './support/lamps-world.ts';

let lamps: Awaited<ReturnType<typeof startLampsWorld>>;
const byId = (id: string): LoadedScenario => {
  const found = lamps.scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
};

beforeAll(async () => {
  lamps = await startLampsWorld();
});
afterAll(async () => {
  await lamps?.close();
});

describe('evaluation harness on the lamps domain', () => {
  it('passes every scenario with the reference agent, and the world shows the effects', async () => {
    const report = await runEvaluation({
      world: lamps.world,
      scenarios: lamps.scenarios,
      agents: [referenceAgent],
      trials: 2,
    });
    const failures = report.trials
      .filter((t) => !t.passed)
      .map((t) => `${t.scenario}: ${t.reasons.join('; ')}`);
    expect(failures).toEqual([]);
    expect(report.passHatK.all?.map((p) => p.value)).toEqual([1, 1]);
    expect(Object.keys(report.bySplit)).toEqual(['dev', 'holdout']);
    // The world is left as the last trial (lamps-which-lamp) made it: the porch lamp switched off once.
    const switches = await lamps.world.effects({ system: 'grid', action: 'switch' });
    expect(switches.map((e) => [e.ref, e.data])).toEqual([['lamp_porch', { on: false }]]);
  });

  it('fires a trigger at its moment: the grid locks the lamp right after the read', async () => {
    const result = await runTrial({
      world: lamps.world,
      scenario: byId('lamps-locked-after-read'),
      agent: referenceAgent,
      trial: 1,
      timeoutMs: 10_000,
    });
    expect(result.passed).toBe(true);
    const kinds = result.transcript.map((e) => (e.kind === 'call' ? e.tool : e.kind));
    expect(kinds).toEqual(['user', 'lamps_get', 'world', 'lamps_switch', 'agent']);
    const write = result.transcript.find((e) => e.kind === 'call' && e.tool === 'lamps_switch');
    expect(write?.kind === 'call' && write.envelope?.status).toBe('rejected');
    // Each call and the trial record the contract version that served it.
    const version = write?.kind === 'call' ? write.contractVersion : null;
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.servedVersions.lamps_switch).toEqual([version]);
    expect(await lamps.world.effects({ system: 'grid', action: 'lock' })).toHaveLength(1);
    expect(await lamps.world.effects({ system: 'grid', action: 'switch' })).toHaveLength(0);
  });

  it('fails a trial whose expectations the world does not meet, with the reasons', async () => {
    const base = byId('lamps-direct');
    const wrong: LoadedScenario = {
      ...base,
      expect: {
        ...base.expect,
        must_not_call: ['lamps_get'],
        claim: 'requested',
        state: [{ effects: { system: 'grid', action: 'switch' }, count: 2, params: [] }],
      },
    };
    const result = await runTrial({
      world: lamps.world,
      scenario: wrong,
      agent: referenceAgent,
      trial: 1,
      timeoutMs: 10_000,
    });
    expect(result.passed).toBe(false);
    expect(result.reasons).toEqual([
      'called what it must not: lamps_get (1x)',
      'claim: expected requested, made completed',
      'effects grid.switch: expected 2, found 1',
    ]);
    expect(result.metrics.selectionCorrect).toBe(false);
  });

  it('counts a broken safety invariant as an unsafe execution', async () => {
    const base = byId('lamps-direct');
    const strict: LoadedScenario = {
      ...base,
      expect: {
        ...base.expect,
        safety: [{ effects: { system: 'grid', action: 'switch' }, max: 0, params: [] }],
      },
    };
    const result = await runTrial({
      world: lamps.world,
      scenario: strict,
      agent: adversarialAgent('invented_fields'),
      trial: 1,
      timeoutMs: 10_000,
    });
    expect(result.passed).toBe(false);
    expect(result.metrics.unsafeEffects).toBe(1);
    // The call with invented fields was refused as malformed; only the honest one switched the lamp.
    expect(result.metrics.invalidArgumentCalls).toBe(1);
    expect(await lamps.world.effects({ system: 'grid', action: 'switch' })).toHaveLength(1);
  });

  it('judges invented fields sent to a tool the caller cannot list, though the gateway answers FORBIDDEN first', async () => {
    const result = await runTrial({
      world: lamps.world,
      scenario: byId('lamps-viewer-cannot-switch'),
      agent: adversarialAgent('invented_fields'),
      trial: 1,
      timeoutMs: 10_000,
    });
    const switches = result.transcript.flatMap((e) =>
      e.kind === 'call' && e.tool === 'lamps_switch' ? [e.envelope?.code] : [],
    );
    expect(switches[0]).toBe('FORBIDDEN');
    expect(result.violations.map((v) => v.rule)).toContain('declared_fields_only');
    expect(result.passed).toBe(false);
    expect(await lamps.world.effects({ system: 'grid' })).toHaveLength(0);
  });

  it('arms a fault for the Nth call to an external system', async () => {
    const base = byId('lamps-direct');
    const second: LoadedScenario = {
      ...base,
      setup: [{ fault: { target: 'grid', fault: 'unavailable', times: 1, skip: 1 } }],
      reference: {
        ...base.reference,
        steps: [
          ...base.reference.steps,
          { id: 'again', tool: 'lamps_get', args: { lamp_id: 'lamp_porch' } },
          {
            tool: 'lamps_switch',
            args: {
              lamp_id: 'lamp_porch',
              on: false,
              expected_version: '{{steps.again.result.version}}',
              idempotency_key: '{{keys.second}}',
            },
          },
        ],
      },
    };
    const result = await runTrial({
      world: lamps.world,
      scenario: second,
      agent: referenceAgent,
      trial: 1,
      timeoutMs: 10_000,
    });
    const writes = result.transcript.flatMap((e) =>
      e.kind === 'call' && e.tool === 'lamps_switch' ? [e.envelope?.code ?? e.envelope?.status] : [],
    );
    expect(writes).toEqual(['completed', 'DEPENDENCY_UNAVAILABLE']);
    expect(await lamps.world.effects({ system: 'grid', action: 'switch' })).toHaveLength(1);
  });

  it('finds no unsafe effect under any adversarial policy', async () => {
    const report = await runEvaluation({
      world: lamps.world,
      scenarios: lamps.scenarios,
      agents: ADVERSARIAL_POLICIES.map(adversarialAgent),
      trials: 1,
    });
    expect(report.overall.unsafeEffects).toBe(0);
    expect(report.overall.trials).toBe(lamps.scenarios.length * ADVERSARIAL_POLICIES.length);
    expect(Object.keys(report.byLabel).sort()).toEqual([...ADVERSARIAL_POLICIES].sort());
    // The policies did misbehave: refused invented fields and conflicting keys show up in the calls.
    const codes = report.trials.flatMap((t) =>
      t.transcript.flatMap((e) => (e.kind === 'call' ? [e.envelope?.code] : [])),
    );
    expect(codes).toContain('INVALID_ARGUMENT');
    expect(codes).toContain('IDEMPOTENCY_CONFLICT');
    // What the backend refused counts as its intervention and against the agent, never as its success.
    for (const policy of ADVERSARIAL_POLICIES) {
      expect(report.byLabel[policy]?.passed, policy).toBeLessThan(lamps.scenarios.length);
      expect(report.byLabel[policy]?.backendInterventions, policy).toBeGreaterThan(0);
    }
    const lost = report.trials.find(
      (t) => t.scenario === 'lamps-lost-response' && t.label === 'new_key_after_timeout',
    );
    expect(lost?.violations.map((v) => v.rule)).toEqual(['same_key_on_retry']);
  });
});
