import type { AgentContext, AgentRun, EvalAgent } from './eval-agent.ts';
import { walkTrajectory } from './trajectory.ts';

/**
 * Follows the scenario's own reference trajectory and makes its claim. Passing every scenario with
 * it shows the backend holds its boundary under every injected fault when the agent does it right.
 */
export const referenceAgent: EvalAgent = {
  kind: 'reference',
  label: 'reference',
  async run(context: AgentContext): Promise<AgentRun> {
    await walkTrajectory(context, context.scenario.reference.steps, (tool, args, meta) =>
      context.session.call(tool, args, meta),
    );
    const { claim, answer } = context.scenario.reference;
    return { claim, answer: answer ?? `The reference trajectory ran to its end.\nCLAIM: ${claim}` };
  },
};
