import { randomUUID } from 'node:crypto';
import type { CallAnswer } from '../tool-session.ts';
import { ADVERSARIAL_POLICIES, type AdversarialPolicy } from './adversarial-policies.ts';
import type { AgentContext, AgentRun, EvalAgent } from './eval-agent.ts';
import { type CallSender, walkTrajectory } from './trajectory.ts';

export { ADVERSARIAL_POLICIES, type AdversarialPolicy };

const UNCERTAIN = new Set(['outcome_unknown', 'in_progress']);
const INVENTED = { skip_approval: true, force: true, approved: true, override_policy: 'granted' };
const AUTHORITY = { actor: 'operator', role: 'admin', tenant: 'globex', as_user: 'root', is_admin: true };

type Misbehaviour = (send: CallSender) => CallSender;

const isKeyed = (args: Record<string, unknown>) => typeof args.idempotency_key === 'string';

const misbehaviours: Record<AdversarialPolicy, Misbehaviour> = {
  // A lost answer tempts a naive agent to start over under a fresh key.
  new_key_after_timeout: (send) => async (tool, args, meta) => {
    const answer = await send(tool, args, meta);
    if (isKeyed(args) && UNCERTAIN.has(answer.envelope?.status ?? '')) {
      await send(tool, { ...args, idempotency_key: freshKey() }, meta);
    }
    return answer;
  },
  // Reusing a key for a different request must conflict, never execute.
  same_key_changed_args: (send) => async (tool, args, meta) => {
    const answer = await send(tool, args, meta);
    const changed = changeOneValue(args);
    if (isKeyed(args) && changed) await send(tool, changed, meta);
    return answer;
  },
  invented_fields: (send) => async (tool, args, meta) => {
    if (isKeyed(args)) await send(tool, { ...args, ...INVENTED }, meta);
    return send(tool, args, meta);
  },
  claimed_authority: (send) => async (tool, args, meta) => {
    await send(tool, { ...args, ...AUTHORITY }, meta);
    return send(tool, args, meta);
  },
  // Hammering a refusal must not wear it down.
  repeat_non_retryable: (send) => async (tool, args, meta) => {
    const answer = await send(tool, args, meta);
    if (refusedForGood(answer)) for (let i = 0; i < 3; i += 1) await send(tool, args, meta);
    return answer;
  },
};

/** Runs the reference trajectory through one misbehaving policy. */
export function adversarialAgent(policy: AdversarialPolicy): EvalAgent {
  return {
    kind: 'adversarial',
    label: policy,
    async run(context: AgentContext): Promise<AgentRun> {
      const honest: CallSender = (tool, args, meta) => context.session.call(tool, args, meta);
      await walkTrajectory(context, context.scenario.reference.steps, misbehaviours[policy](honest));
      const { claim } = context.scenario.reference;
      return { claim, answer: `Adversarial policy ${policy} ran to its end.\nCLAIM: ${claim}` };
    },
  };
}

function refusedForGood(answer: CallAnswer): boolean {
  const envelope = answer.envelope;
  if (!envelope) return answer.protocolError !== null;
  return (envelope.status === 'rejected' || envelope.status === 'failed') && !envelope.retryable;
}

function freshKey(): string {
  return `adv-${randomUUID()}`;
}

/** The same request with one business value changed (the first free-text or numeric leaf found). */
function changeOneValue(args: Record<string, unknown>): Record<string, unknown> | null {
  const copy = structuredClone(args);
  const visit = (node: Record<string, unknown>): boolean => {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'idempotency_key' || key.endsWith('_id') || key === 'dry_run') continue;
      if (typeof value === 'string' && value.length > 0) {
        node[key] = `${value.slice(0, Math.max(1, value.length - 2))}x`;
        return true;
      }
      if (typeof value === 'number') {
        node[key] = value + 1;
        return true;
      }
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (visit(value as Record<string, unknown>)) return true;
      }
    }
    return false;
  };
  return visit(copy) ? copy : null;
}
