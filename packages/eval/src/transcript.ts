import type { OutcomeEnvelope } from 'toolgate';
import type { WorldAction } from './scenario-schema.ts';

/** One tool call as it went over MCP: what the agent sent and what came back. */
export interface CallRecord {
  readonly kind: 'call';
  /** 1-based position among this trial's calls. */
  readonly index: number;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly meta?: Record<string, unknown>;
  /** The outcome envelope; null when the call was answered with a JSON-RPC error. */
  readonly envelope: OutcomeEnvelope | null;
  /** The contract version of the tool that served the call (its envelope's); null without an envelope. */
  readonly contractVersion: string | null;
  readonly protocolError: string | null;
  /** Size of the tool result the agent had to read. */
  readonly bytes: number;
  /** When the call was sent, in milliseconds on the trial's monotonic clock. */
  readonly at?: number;
  readonly ms: number;
}

/**
 * A question the gateway put to the person through the client (elicitation) while a call was being
 * made, and how the scripted person answered it. It comes before the record of the call it belongs to.
 */
export interface ConfirmationEvent {
  readonly kind: 'confirmation';
  /** The tool being called when the question came. */
  readonly tool: string | null;
  readonly message: string;
  readonly answer: 'accept' | 'decline' | 'cancel';
  /** The option the person chose, when the question offered a choice. */
  readonly choice: string | null;
  /** The scenario scripted this answer; an unscripted question is dismissed. */
  readonly scripted: boolean;
  /** What the person expected to read and did not (they declined for it). */
  readonly missing: readonly string[];
}

export type TranscriptEvent =
  | CallRecord
  | ConfirmationEvent
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'agent'; readonly text: string }
  | { readonly kind: 'world'; readonly moment: string; readonly action: WorldAction };

/** Everything that happened in one trial, in order. */
export class Transcript {
  readonly events: TranscriptEvent[] = [];

  add(event: TranscriptEvent): void {
    this.events.push(event);
  }

  calls(): CallRecord[] {
    return this.events.filter((e): e is CallRecord => e.kind === 'call');
  }
}
