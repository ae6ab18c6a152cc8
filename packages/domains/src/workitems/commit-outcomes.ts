import { outcome, type ToolOutcome } from 'toolgate';
import type { Draft } from './draft-store.ts';
import type { TrackerItem, TrackerMode } from './systems/tracker/tracker-model.ts';
import type { CommitResult } from './workitems-results.ts';
import { itemView } from './workitems-views.ts';

/** The outcomes a commit can settle to, worded for the agent: what happened and the next step. */
export function committed(draft: Draft, item: TrackerItem, mode: TrackerMode): ToolOutcome<CommitResult> {
  return outcome.completed(
    { draft_id: draft.draftId, item: itemView(item), tracker_mode: mode },
    { message: `Work item ${item.itemId} was created in project ${item.projectKey}.` },
  );
}

export function notApplied(): ToolOutcome<CommitResult> {
  return outcome.rejected(
    'COMMIT_NOT_APPLIED',
    'The commit never reached the tracker; no work item was created.',
    {
      resolution: 'The draft is open again. Commit it with a new idempotency_key if the user still wants it.',
    },
  );
}

export function unknownOutcome(draft: Draft, mode: TrackerMode): ToolOutcome<CommitResult> {
  const next =
    mode === 'idempotent'
      ? `The tracker of ${draft.projectId} can be asked whether this request arrived; the reconciler will settle it.`
      : `The tracker of ${draft.projectId} cannot be asked and does not deduplicate, so nothing re-sends this commit: it goes to human review.`;
  return outcome.unknown(
    'OUTCOME_UNKNOWN',
    `The tracker's answer was lost; item "${draft.fields.title}" may or may not exist.`,
    {
      resolution: `${next} Tell the user it is unconfirmed and poll operations_get with the operation_id; do not commit again or create a new draft.`,
    },
  );
}

export function duplicateOutcome(earlier: Draft): ToolOutcome<CommitResult> {
  if (earlier.state !== 'committed') {
    return outcome.requiresConfirmation(
      'POSSIBLE_DUPLICATE',
      `A commit of the same title and description (draft ${earlier.draftId}, operation ${earlier.commitOperationId}) has no established outcome yet; nothing was created.`,
      {
        resolution:
          `Poll operations_get with operation ${earlier.commitOperationId} until it settles, then tell the user what it created. ` +
          'A separate item of the same content can be committed only after that (confirm_new_item does not apply while it is unsettled).',
      },
    );
  }
  return outcome.requiresConfirmation(
    'POSSIBLE_DUPLICATE',
    `Work item ${earlier.itemId} with the same title and description was committed at ${new Date(earlier.committedAt ?? 0).toISOString()}; nothing was created.`,
    {
      resolution:
        `Show ${earlier.itemId} to the user. Only if they confirm this is a separate piece of work, ` +
        'call workitems_commit again with confirm_new_item: true and a new idempotency_key.',
    },
  );
}
