import type { AgentRun, EvalAgent } from './eval-agent.ts';

/**
 * The baseline every report carries: an agent that answers without calling a tool. A suite it
 * passes measures nothing, so its success rate (it should stay near zero) shows how much of a score
 * is the agent's work, and it earns no recovery credit: it never met anything to recover from.
 */
export const doNothingAgent: EvalAgent = {
  kind: 'reference',
  label: 'do-nothing',
  async run(): Promise<AgentRun> {
    return { claim: 'refused', answer: 'I did not do anything.\nCLAIM: refused' };
  },
};
