/** What the agent's final answer says happened (DESIGN.md section 3, from the user's side). */
export const CLAIMS = ['completed', 'requested', 'needs_confirmation', 'refused', 'uncertain'] as const;
export type Claim = (typeof CLAIMS)[number];

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
completed: a tool result (or operations_get) confirmed the change was made.
requested: a third party received a request and decides later (a redirect not yet decided, a change
waiting for approval); nothing is done yet.
needs_confirmation: nothing changed; the user must confirm something (a suggestion, a dry run, a draft) first.
refused: nothing changed because it is not allowed, not possible, or you chose not to do it.
uncertain: it is not known whether the change happened (an unknown outcome you could not settle).
Of several changes asked for, claim completed only when every one was made; otherwise claim what is
true of one that was not, and say in the answer what became of each.
Claim only what the tool results showed you.
If you need information or a confirmation from the user, ask one short question and do not write a CLAIM line.`;
