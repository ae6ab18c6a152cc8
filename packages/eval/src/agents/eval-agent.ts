import type { Claim } from '../claim.ts';
import type { LoadedScenario } from '../scenario-schema.ts';
import type { ScriptedUser } from '../scripted-user.ts';
import type { TemplateScope } from '../template.ts';
import type { ToolSession } from '../tool-session.ts';

export const AGENT_KINDS = ['reference', 'adversarial', 'llm'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export interface AgentContext {
  readonly scenario: LoadedScenario;
  readonly session: ToolSession;
  /** Fixtures, the principal and (for scripted agents) earlier step results live here. */
  readonly scope: TemplateScope;
  readonly user: ScriptedUser;
  readonly signal: AbortSignal;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** How an agent's conversation ended. */
export interface AgentRun {
  /** The claim its final answer made; null when it made none the harness could read. */
  readonly claim: Claim | null;
  readonly answer: string;
  readonly usage?: TokenUsage;
}

/** Something that works a scenario through the MCP tools, the way an assistant would. */
export interface EvalAgent {
  readonly kind: AgentKind;
  /** A label for reports (the policy or model). */
  readonly label: string;
  run(context: AgentContext): Promise<AgentRun>;
}
