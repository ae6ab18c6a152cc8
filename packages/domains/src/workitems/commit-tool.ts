import { defineTool, idempotencyKeySchema } from 'toolgate';
import { z } from 'zod';
import { COMMIT_CONFIRM_WHEN, confirmedCommit } from './commit-confirmation.ts';
import type { DraftCommitter } from './draft-commit.ts';
import { DUPLICATE_WINDOW_SECONDS } from './duplicate-policy.ts';
import { workitemsErrors } from './workitems-errors.ts';
import { commitResultSchema } from './workitems-results.ts';
import { DRAFT_ID_PATTERN } from './workitems-schemas.ts';

const windowHours = DUPLICATE_WINDOW_SECONDS / 3600;

const input = z.strictObject({
  draft_id: z
    .string()
    .regex(DRAFT_ID_PATTERN)
    .describe('The draft to commit: draft_id from workitems_create_draft.'),
  confirm_new_item: z
    .boolean()
    .default(false)
    .describe(
      'Set true only after the user saw the possible duplicate named by a POSSIBLE_DUPLICATE answer and confirmed ' +
        'this is a separate piece of work (default false).',
    ),
  idempotency_key: idempotencyKeySchema,
  confirmation: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional()
    .describe(
      'Only after a CONFIRMATION_REQUIRED answer and the user agreed to the item it showed: the confirmation value it named (24 lowercase hex). Omit otherwise.',
    ),
});

export function commitTool(committer: DraftCommitter) {
  return defineTool({
    name: 'workitems_commit',
    title: 'Commit a draft to the tracker',
    description:
      "Sends a prepared draft to its project's tracker, which creates the work item: the consequential write. " +
      'Use it only after the user has seen the draft and asked to file it; do not use it to prepare or change items. ' +
      'Write access to the project is checked again now. Every commit is put to the user to confirm first, showing the ' +
      "item's project, type, title, priority and labels (and an item of the same content committed in the last " +
      `${windowHours} hours, which confirming files beside): a client that can ask its user asks them; otherwise the answer is ` +
      'requires_confirmation / CONFIRMATION_REQUIRED: show the user its message as given and, only if they agree, call again ' +
      'with the same arguments and the confirmation it names. On success the result holds the created item (item_id, ' +
      'tracker state). Retry only with the same idempotency_key: a repeat then returns the first outcome and never ' +
      `creates a second item. Duplicate policy: if the same project, type, title and description (case and spacing ignored) was committed, or is being committed, within ${windowHours} hours, ` +
      'the question names the existing item; should one appear after the user was asked, the answer is requires_confirmation / ' +
      'POSSIBLE_DUPLICATE naming it and nothing is created unless confirm_new_item is true; while such a commit has no ' +
      'established outcome even confirm_new_item is refused (COMMIT_OUTCOME_PENDING naming the operation to poll). ' +
      'Tracker limitation: a project whose tracker_mode is "unprotected" has a tracker ' +
      'that neither deduplicates nor answers status queries, so a lost answer there is outcome_unknown, goes to human ' +
      'review and is never re-sent; in "idempotent" projects a lost answer is settled by asking the tracker. ' +
      'After outcome_unknown, poll operations_get; never commit again or prepare a new draft for the same work.',
    kind: 'write',
    mutation: 'create',
    externalSystems: ['tracker'],
    version: '1.3.1',
    input,
    output: commitResultSchema,
    errors: [
      workitemsErrors.WORKITEM_NOT_FOUND,
      workitemsErrors.PROJECT_NOT_FOUND,
      workitemsErrors.PROJECT_ACCESS_DENIED,
      workitemsErrors.DRAFT_ALREADY_COMMITTED,
      workitemsErrors.COMMIT_OUTCOME_PENDING,
      workitemsErrors.POSSIBLE_DUPLICATE,
      workitemsErrors.TRACKER_REJECTED,
      workitemsErrors.COMMIT_NOT_APPLIED,
    ],
    scopes: ['workitems:write'],
    timeoutMs: 15_000,
    notes: [
      'Projects in tracker_mode "unprotected" use a tracker without duplicate protection and without a status ' +
        'query: a lost response is outcome_unknown and is settled only by human review; nothing re-sends the write.',
      'Projects in tracker_mode "idempotent" use a tracker that deduplicates creation by request id (the operation ' +
        'id) and can be asked about it: a lost response is reconciled by that status query.',
      `A commit of the same project, type, title and description as a commit of the last ${windowHours} h is named in ` +
        "the user's confirmation; one that appears only after they were asked answers requires_confirmation / " +
        'POSSIBLE_DUPLICATE unless confirm_new_item is true.',
    ],
    examples: [
      {
        title: 'Commit a prepared draft',
        input: {
          draft_id: 'drf_5b1e0c9a7d3f2e4b6a8c0d1e',
          idempotency_key: 'commit-5b1e0c9a-checkout-banner',
        },
      },
      {
        title: 'Commit after the user confirmed it is not a duplicate',
        input: {
          draft_id: 'drf_5b1e0c9a7d3f2e4b6a8c0d1e',
          confirm_new_item: true,
          idempotency_key: 'commit-5b1e0c9a-confirmed-new',
        },
      },
    ],
    // The user sits at the chat and a mistaken item can be closed: a relayed confirmation is acceptable.
    confirm: {
      when: COMMIT_CONFIRM_WHEN,
      fallback: 'agent',
      ask: (args, ctx) => committer.question(ctx.principal, args.draft_id),
    },
    handler: async (args, ctx) => {
      if (!ctx.operation) throw new Error('workitems_commit executes only under a reserved operation');
      return committer.commit(
        ctx.principal,
        args.draft_id,
        args.confirm_new_item,
        confirmedCommit(ctx.confirmation),
        ctx.operation,
        ctx.signal,
      );
    },
    reconcile: async (operation, ctx) => committer.reconcile(operation, ctx.signal),
    checkReviewDecision: async (operation, decision) => committer.reviewRefusal(operation, decision),
    onReviewResolved: async (operation, decision) => committer.followReview(operation, decision),
  });
}
