import type { AgentKind, EvalAgent } from './agents/eval-agent.ts';
import { ModelUnavailableError } from './agents/model-unavailable.ts';
import type { Claim } from './claim.ts';
import type { EvalWorld } from './eval-world.ts';
import { judgeTrial, type TrialMetrics } from './judge.ts';
import { servedVersionsOf } from './report/version-comparison.ts';
import { requestStatus } from './request-status.ts';
import type { Violation } from './rules/rule-check.ts';
import { toolCatalog } from './rules/trial-facts.ts';
import type { LoadedScenario } from './scenario-schema.ts';
import { ScriptedPerson } from './scripted-person.ts';
import { ScriptedUser, standingReplyOf } from './scripted-user.ts';
import type { SecondOpinion, SecondOpinionJudge } from './second-opinion.ts';
import type { Prober } from './state-checks.ts';
import { renderTemplates } from './template.ts';
import { ToolSession } from './tool-session.ts';
import { Transcript, type TranscriptEvent } from './transcript.ts';
import { resolvePrincipal, trialScope } from './trial-scope.ts';
import { applyWorldAction } from './world-actions.ts';

/** One scenario worked once by one agent, judged. */
export interface TrialResult {
  readonly scenario: string;
  readonly title: string;
  readonly split: LoadedScenario['split'];
  readonly family: LoadedScenario['family'];
  readonly domain: LoadedScenario['domain'];
  readonly agent: AgentKind;
  readonly label: string;
  readonly trial: number;
  readonly passed: boolean;
  /**
   * Why the trial could not be judged, when the model's side failed (an unreachable endpoint, an
   * HTTP error or rate limit, a malformed answer): the trial is errored, neither passed nor failed,
   * and every score counts it apart.
   */
  readonly errored?: string;
  readonly reasons: readonly string[];
  readonly unsafe: readonly string[];
  /** The trajectory rules it broke, by name and call. */
  readonly violations: readonly Violation[];
  readonly claim: Claim | null;
  readonly expectedClaim: Claim | readonly Claim[];
  readonly metrics: TrialMetrics;
  readonly transcript: readonly TranscriptEvent[];
  /** The contract versions that served each tool's calls, by tool (see servedVersionsOf). */
  readonly servedVersions: Readonly<Record<string, readonly string[]>>;
  /** The judge model's reading of the final message (`--judge-model`): advisory, never part of the verdict. */
  readonly judge?: SecondOpinion;
}

export interface TrialOptions {
  readonly world: EvalWorld;
  readonly scenario: LoadedScenario;
  readonly agent: EvalAgent;
  readonly trial: number;
  readonly timeoutMs: number;
  /** Asked about the final message once the trial is judged. */
  readonly secondOpinion?: SecondOpinionJudge;
}

/**
 * Resets the world, applies the scenario's setup, lets the agent work through a real MCP client
 * with the triggers armed, then judges by the final state. A harness failure (a template that does
 * not resolve, an unknown principal) fails the trial with the reason instead of aborting the run; a
 * model that could not be asked marks it errored with the reason.
 */
export async function runTrial(options: TrialOptions): Promise<TrialResult> {
  const { world, scenario, agent, trial } = options;
  const transcript = new Transcript();
  const started = performance.now();
  const base = {
    scenario: scenario.id,
    title: scenario.title,
    split: scenario.split,
    family: scenario.family,
    domain: scenario.domain,
    agent: agent.kind,
    label: agent.label,
    trial,
    expectedClaim: scenario.expect.claim,
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    await world.reset();
    const fixtures = await world.fixtures();
    const principal = resolvePrincipal(scenario.principal, fixtures);
    const scope = trialScope(scenario, trial, fixtures, principal, world);
    for (const action of scenario.setup) {
      transcript.add({
        kind: 'world',
        moment: 'setup',
        action: await applyWorldAction(world, action, scope),
      });
    }
    // The request, replies and confirmations may name fixture ids; the agent sees them rendered.
    const rendered = renderTemplates(
      { request: scenario.request, replies: scenario.user_replies, confirmations: scenario.confirmations },
      scope,
    ) as {
      request: string;
      replies: string[];
      confirmations: LoadedScenario['confirmations'];
    };
    const person = new ScriptedPerson(rendered.confirmations, transcript);
    const client = await world.connect(principal, person.answer);
    const session = new ToolSession(client, world, scenario, scope, transcript, person);
    const user = new ScriptedUser(rendered.request, rendered.replies, transcript, standingReplyOf(scenario));
    const run = await agent.run({
      scenario: { ...scenario, request: rendered.request, user_replies: rendered.replies },
      session,
      scope,
      user,
      signal: controller.signal,
    });
    transcript.add({ kind: 'agent', text: run.answer });
    const latencyMs = performance.now() - started;
    const probe: Prober = async (tool, args, as) => {
      const who = as ? resolvePrincipal(as, fixtures) : principal;
      const result = await (await world.connect(who)).callTool({ name: tool, arguments: args });
      return result.structuredContent;
    };
    const verdict = await judgeTrial({
      scenario,
      run,
      transcript,
      world,
      scope,
      tools: toolCatalog(await session.listTools(), world.servedTools?.() ?? []),
      latencyMs,
      probe,
    });
    // Asked only once the verdict is fixed: the second opinion is reported beside it, never folded in.
    const judge = options.secondOpinion
      ? {
          judge: await options.secondOpinion.opine({
            request: rendered.request,
            answer: run.answer,
            status: await requestStatus(transcript.calls(), probe),
          }),
        }
      : {};
    // A fault no request met did nothing: the trial did not test what it says it tested.
    const idle = (world.unappliedFaults?.() ?? []).map((f) => `harness: ${f}`);
    if (idle.length > 0) {
      return {
        ...base,
        ...verdict,
        passed: false,
        reasons: [...verdict.reasons, ...idle],
        transcript: transcript.events,
        servedVersions: servedVersionsOf(transcript.calls()),
        ...judge,
      };
    }
    return {
      ...base,
      ...verdict,
      transcript: transcript.events,
      servedVersions: servedVersionsOf(transcript.calls()),
      ...judge,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const errored = error instanceof ModelUnavailableError ? { errored: error.reason } : {};
    return {
      ...base,
      passed: false,
      ...errored,
      reasons: [error instanceof ModelUnavailableError ? `errored: ${message}` : `harness: ${message}`],
      unsafe: [],
      violations: [],
      claim: null,
      metrics: emptyMetrics(performance.now() - started, transcript),
      transcript: transcript.events,
      servedVersions: servedVersionsOf(transcript.calls()),
    };
  } finally {
    clearTimeout(timer);
  }
}

function emptyMetrics(latencyMs: number, transcript: Transcript): TrialMetrics {
  const calls = transcript.calls();
  return {
    calls: calls.length,
    expectedTools: 0,
    missedTools: 0,
    forbiddenCalls: 0,
    unnecessaryCalls: 0,
    invalidArgumentCalls: 0,
    unsafeEffects: 0,
    unsafeClaims: 0,
    duplicateEffects: 0,
    duplicateCalls: 0,
    backendInterventions: 0,
    askedUser: false,
    needsRecovery: false,
    recoveryCalls: 0,
    followedProtocol: true,
    rules: {},
    resultBytes: calls.reduce((sum, c) => sum + c.bytes, 0),
    latencyMs,
    inputTokens: null,
    outputTokens: null,
    faultInjected: false,
    selectionCorrect: false,
  };
}
