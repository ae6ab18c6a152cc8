import { CLAIMS, type Claim } from './scenario-schema.ts';

const CLAIM_LINE = /^\s*\**\s*CLAIM\s*\**\s*:\s*\**\s*([a-z_ -]+?)\s*\**\s*$/gim;
const ALIASES: Record<string, Claim> = {
  done: 'completed',
  requested_not_done: 'requested',
  submitted: 'requested',
  needs_information: 'needs_confirmation',
  rejected: 'refused',
  unknown: 'uncertain',
};

/**
 * Reads the structured claim line an agent ends its answer with (`CLAIM: completed`); the last one
 * wins. Free wording is never classified: no claim line means no claim.
 */
export function parseClaim(text: string): Claim | null {
  let found: Claim | null = null;
  for (const match of text.matchAll(CLAIM_LINE)) {
    const word = match[1]!.trim().toLowerCase().replace(/[ -]+/g, '_');
    if ((CLAIMS as readonly string[]).includes(word)) found = word as Claim;
    else if (ALIASES[word]) found = ALIASES[word];
  }
  return found;
}

/** The instruction every llm agent gets about its final answer. */
export const CLAIM_INSTRUCTIONS = `When you are finished, end your final answer with one line of the form
CLAIM: <completed|requested|needs_confirmation|refused|uncertain>
completed: the system confirmed the change was made.
requested: a third party received a request and decides later; nothing is done yet.
needs_confirmation: nothing changed; the user must confirm something (a suggestion, a dry run) first.
refused: nothing changed because it is not allowed, not possible, or you chose not to do it.
uncertain: it is not known whether the change happened.
If you need information from the user, ask one short question and do not write a CLAIM line.`;
