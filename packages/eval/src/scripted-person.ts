import { CHOICE_FIELD, CONFIRM_FIELD } from 'toolgate';
import type { ConfirmationScript } from './scenario-schema.ts';
import type { ConfirmationEvent, Transcript } from './transcript.ts';

/** A question the client puts to its user (form-mode elicitation), as the person reads it. */
export interface PersonQuestion {
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
}

/** The person's answer, in the shape an `elicitation/create` result takes. */
export type PersonReply =
  | { readonly action: 'accept'; readonly content: Record<string, string | boolean> }
  | { readonly action: 'decline' | 'cancel' };

/** Whoever answers the questions the client asks its user. */
export type Person = (question: PersonQuestion) => Promise<PersonReply>;

/**
 * The person behind the client: answers each question the gateway asks through elicitation from the
 * scenario's `confirmations`, in order (the last answer repeats, as a person asked the same thing
 * twice answers the same). A person who was told what they asked for declines a question that does
 * not say it (`expect_shown`), as anyone reading a confirmation of something else would. With no
 * script, the person dismisses the question: nothing in the scenario says they would agree.
 */
export class ScriptedPerson {
  #asked = 0;
  /** The tool whose call is being made while the question comes in. */
  during: string | null = null;

  constructor(
    private readonly script: readonly ConfirmationScript[],
    private readonly transcript: Transcript,
  ) {}

  readonly answer: Person = async (question) => {
    this.#asked += 1;
    const line = this.script.length ? this.script[Math.min(this.#asked, this.script.length) - 1] : undefined;
    const shown = `${question.message}\n${JSON.stringify(question.requestedSchema ?? {})}`.toLowerCase();
    const missing = (line?.expect_shown ?? []).filter((text) => !shown.includes(text.toLowerCase()));
    const action = !line ? 'cancel' : missing.length > 0 ? 'decline' : line.answer;
    const choice = action === 'accept' ? (line?.choice ?? null) : null;
    const event: ConfirmationEvent = {
      kind: 'confirmation',
      tool: this.during,
      message: question.message,
      answer: action,
      choice,
      scripted: line !== undefined,
      missing,
    };
    this.transcript.add(event);
    if (action !== 'accept') return { action };
    return {
      action,
      content: { [CONFIRM_FIELD]: true, ...(choice !== null ? { [CHOICE_FIELD]: choice } : {}) },
    };
  };
}
