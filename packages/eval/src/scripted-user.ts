import type { Transcript } from './transcript.ts';

/** What a user who said everything in the request answers when asked again: go ahead, as asked. */
export const STANDING_REPLY = 'Yes, please go ahead with what I asked.';
/** How many times the standing reply is given in one trial before the user stops answering. */
export const STANDING_REPLY_LIMIT = 2;

/**
 * The user side of the conversation: the request, then the scenario's scripted replies in order, then
 * (where the scenario has one) a standing reply a few times, so that a careful agent that asks once
 * more before acting is answered rather than left talking to no one.
 */
export class ScriptedUser {
  #next = 0;
  #standingGiven = 0;

  constructor(
    readonly request: string,
    private readonly replies: readonly string[],
    private readonly transcript: Transcript,
    private readonly standing: string | null = null,
  ) {
    transcript.add({ kind: 'user', text: request });
  }

  /** Records the agent's turn and answers it; null when the user has nothing more to say. */
  answer(agentText: string): string | null {
    this.transcript.add({ kind: 'agent', text: agentText });
    const reply = this.#nextReply();
    if (reply === null) return null;
    this.transcript.add({ kind: 'user', text: reply });
    return reply;
  }

  /** Scripted replies not yet given. */
  get remaining(): number {
    return this.replies.length - this.#next;
  }

  /** Whether the user would still answer a question (a scripted reply or the standing one). */
  get canAnswer(): boolean {
    return this.remaining > 0 || (this.standing !== null && this.#standingGiven < STANDING_REPLY_LIMIT);
  }

  #nextReply(): string | null {
    const scripted = this.replies[this.#next];
    if (scripted !== undefined) {
      this.#next += 1;
      return scripted;
    }
    if (this.standing === null || this.#standingGiven >= STANDING_REPLY_LIMIT) return null;
    this.#standingGiven += 1;
    return this.standing;
  }
}

/**
 * The standing reply of a scenario: its own `user_default_reply` when set (null: none), otherwise
 * STANDING_REPLY when the request is all the user says (no scripted replies). A scenario with scripted
 * replies gets none by default: after a "No", a "go ahead" would put words in the user's mouth.
 */
export function standingReplyOf(scenario: {
  readonly user_replies: readonly string[];
  readonly user_default_reply?: string | null;
}): string | null {
  if (scenario.user_default_reply !== undefined) return scenario.user_default_reply;
  return scenario.user_replies.length === 0 ? STANDING_REPLY : null;
}
