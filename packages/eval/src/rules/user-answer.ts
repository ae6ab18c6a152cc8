import type { TranscriptEvent } from '../transcript.ts';

/**
 * A reply that says no to what the agent proposed: it opens with a refusal or a postponement
 * ("No", "Not yet", "Don't", "Cancel", "Hold off", "Wait"). Read deterministically from the words.
 */
const DECLINE =
  /^\W*(no|nope|not yet|not now|not today|don'?t|do not|cancel|stop|never ?mind|hold off|wait|leave it)\b/i;

export function isDecline(text: string): boolean {
  return DECLINE.test(text);
}

/** The user's words normalized for finding a quoted fact in them. */
export function normalizeWords(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** The user's request and replies, in order, with their positions. */
export function userTurns(events: readonly TranscriptEvent[]): { position: number; text: string }[] {
  return events.flatMap((e, position) => (e.kind === 'user' ? [{ position, text: e.text }] : []));
}
