import type { Transcript } from './transcript.ts';

/** The user side of the conversation: the request, then the scenario's scripted replies in order. */
export class ScriptedUser {
  #next = 0;

  constructor(
    readonly request: string,
    private readonly replies: readonly string[],
    private readonly transcript: Transcript,
  ) {
    transcript.add({ kind: 'user', text: request });
  }

  /** Records the agent's turn and answers it; null when the script has nothing more to say. */
  answer(agentText: string): string | null {
    this.transcript.add({ kind: 'agent', text: agentText });
    const reply = this.replies[this.#next];
    if (reply === undefined) return null;
    this.#next += 1;
    this.transcript.add({ kind: 'user', text: reply });
    return reply;
  }

  get remaining(): number {
    return this.replies.length - this.#next;
  }
}
