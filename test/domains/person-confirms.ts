import type { App } from '../../src/app/create-app.ts';
import type { Principal } from '../../src/auth/principal.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import type { ConfirmationQuestion } from '../../src/gateway/confirmation-layer.ts';

/** What the person answers when a call asks them (a choice names the option's value). */
export type PersonReply =
  | { readonly action: 'accept'; readonly choice?: string }
  | { readonly action: 'decline' | 'cancel' };

export interface ConfirmedCall {
  readonly envelope: OutcomeEnvelope;
  /** The question the person was asked, or null when the call needed no confirmation. */
  readonly asked: ConfirmationQuestion | null;
}

/**
 * One in-process call from a client that can ask its user: when the tool asks, the question goes to
 * the person, whose reply comes back with the state the question was asked with, as the 2026-07-28
 * transport carries it. For domain tests whose subject is not the confirmation itself (recovery,
 * duplicates, concurrency); the confirmation over the wire is tested with `confirmingClient`.
 */
export async function callAsPerson(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  reply: PersonReply = { action: 'accept' },
): Promise<ConfirmedCall> {
  const first = await app.gateway.callToolEnvelopeOrAsk(
    { name, arguments: args, consent: { canAsk: true } },
    principal,
  );
  if (first.kind === 'envelope') return { envelope: first.envelope, asked: null };
  const { question } = first;
  const content =
    reply.action === 'accept'
      ? { confirm: true, ...(reply.choice !== undefined ? { choice: reply.choice } : {}) }
      : undefined;
  const second = await app.gateway.callToolEnvelopeOrAsk(
    {
      name,
      arguments: args,
      consent: {
        canAsk: true,
        answer: { state: question.state, action: reply.action, ...(content ? { content } : {}) },
      },
    },
    principal,
  );
  if (second.kind === 'ask') throw new Error(`${name} asked again after the person answered`);
  return { envelope: second.envelope, asked: question };
}

/** The envelope of a call the person accepts (or that needed no confirmation). */
export async function callAccepted(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  choice?: string,
): Promise<OutcomeEnvelope> {
  const reply: PersonReply = choice === undefined ? { action: 'accept' } : { action: 'accept', choice };
  return (await callAsPerson(app, principal, name, args, reply)).envelope;
}
