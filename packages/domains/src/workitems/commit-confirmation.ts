import type { ConfirmationAsk, ConfirmationView } from 'toolgate';
import { canonicalJson, sha256Hex } from 'toolgate';
import type { Draft } from './draft-store.ts';

/** The contract's words for when the user confirms a commit. */
export const COMMIT_CONFIRM_WHEN = 'always: every commit creates a real tracker item';

/** What the user confirmed a commit of: the draft as they saw it, and the duplicate they accepted. */
export interface ConfirmedCommit {
  readonly draftHash: string;
  /** The earlier draft of the same content they agreed to file beside, when the question named one. */
  readonly duplicateOf: string | null;
}

/**
 * Everything the tracker item is made of (project and every field, priority and labels included,
 * unlike the duplicate rule's content hash): if any of it differs from what the user saw, nothing runs.
 */
export function draftHash(draft: Draft): string {
  return sha256Hex(canonicalJson({ project: draft.projectId, fields: draft.fields }));
}

/**
 * The user's question for committing a draft: what the tracker item will be, and an item of the same
 * content committed within the duplicate window, which confirming files beside it. The title is text
 * the model wrote, so it is shown quoted as what will be written.
 */
export function commitQuestion(draft: Draft, earlier: Draft | null): ConfirmationAsk {
  const { fields } = draft;
  const duplicate = earlier
    ? ` Work item ${earlier.itemId} with the same title and description was committed at ${new Date(earlier.committedAt ?? 0).toISOString()}; confirming creates another, separate item.`
    : '';
  return {
    message: `Create a ${fields.priority}-priority ${fields.type} in project ${draft.projectId} from draft ${draft.draftId}?${duplicate}`,
    details: {
      project: draft.projectId,
      type: fields.type,
      title: `"${fields.title}"`,
      priority: fields.priority,
      labels: fields.labels.length > 0 ? fields.labels.join(', ') : null,
      identical_item: earlier ? earlier.itemId : null,
    },
    facts: { draft_id: draft.draftId, draft_hash: draftHash(draft), duplicate_of: earlier?.draftId ?? null },
  };
}

/** What the handler runs under: the confirmed draft and duplicate, or null when nobody confirmed. */
export function confirmedCommit(confirmation: ConfirmationView | null): ConfirmedCommit | null {
  const facts = confirmation?.facts;
  if (!facts || typeof facts.draft_hash !== 'string') return null;
  return {
    draftHash: facts.draft_hash,
    duplicateOf: typeof facts.duplicate_of === 'string' ? facts.duplicate_of : null,
  };
}
