import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from '@toolgate/simulation';
import type {
  ConfirmationAsk,
  OperationHandle,
  OperationSnapshot,
  Principal,
  ReconcileVerdict,
  ReviewDecisionView,
} from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import { type ConfirmedCommit, commitQuestion } from './commit-confirmation.ts';
import { committed, duplicateOutcome, notApplied, unknownOutcome } from './commit-outcomes.ts';
import { claimDraft } from './draft-claim.ts';
import { type Draft, draftStore } from './draft-store.ts';
import { DUPLICATE_WINDOW_SECONDS } from './duplicate-policy.ts';
import type { TrackerMode } from './systems/tracker/tracker-model.ts';
import type { CommitResult } from './workitems-results.ts';
import type { WorkItemsDeps } from './workitems-service.ts';

/**
 * Commits a draft to the tracker: the consequential write. The tracker request carries the operation
 * id; whether a lost answer can be settled depends on the project's tracker mode, and nothing here
 * ever sends a create again under a new request id.
 */
export class DraftCommitter {
  constructor(private readonly deps: WorkItemsDeps) {}

  /**
   * What the user is asked before this draft is committed: the item it creates, and an item of the
   * same content committed within the duplicate window. Null when the commit will not send anything
   * (no such draft for this caller, no write access, already committed or being committed, a commit of
   * the same content still unsettled): the commit itself then answers why, exactly as before. Changes
   * nothing.
   */
  async question(principal: Principal, draftId: string): Promise<ConfirmationAsk | null> {
    const { db, clock } = this.deps;
    const visible = await this.#writableDraft(principal, draftId);
    if (visible.kind !== 'draft' || visible.draft.state !== 'draft') return null;
    const { draft } = visible;
    if (await draftStore.sameContentCommitting(db, draft)) return null;
    const earlier = await draftStore.recentSameContent(
      db,
      draft,
      clock.now() - DUPLICATE_WINDOW_SECONDS * 1000,
    );
    if (earlier && earlier.state !== 'committed') return null;
    return commitQuestion(draft, earlier);
  }

  async commit(
    principal: Principal,
    draftId: string,
    confirmNewItem: boolean,
    confirmed: ConfirmedCommit | null,
    operation: OperationHandle,
    signal: AbortSignal,
  ): Promise<ToolOutcome<CommitResult>> {
    const { db, tracker, clock } = this.deps;
    const visible = await this.#writableDraft(principal, draftId);
    if (visible.kind === 'refused') return visible.outcome;
    const { draft } = visible;
    const mode = (await tracker.mode(principal.tenant, draft.projectId)) ?? 'unprotected';
    const claim = await claimDraft(db, draft, operation.id, {
      confirmNewItem,
      confirmed,
      now: clock.now(),
      resend: mode === 'idempotent',
      signal,
    });
    switch (claim.kind) {
      case 'already_committed':
        return this.#alreadyCommitted(claim.draft, operation.id, mode);
      case 'pending':
        if (claim.draft.commitOperationId === operation.id) return unknownOutcome(claim.draft, mode);
        return outcome.rejected(
          'COMMIT_OUTCOME_PENDING',
          `An earlier commit of draft ${draftId} (operation ${claim.draft.commitOperationId}) has no established outcome yet.`,
          { resolution: 'Poll operations_get with that operation id; do not commit this draft again.' },
        );
      case 'duplicate':
        return duplicateOutcome(claim.earlier);
      case 'pending_elsewhere':
        return outcome.rejected(
          'COMMIT_OUTCOME_PENDING',
          `A commit of the same title and description (draft ${claim.earlier.draftId}, operation ${claim.earlier.commitOperationId}) has no established outcome yet; nothing was sent.`,
          {
            resolution: `Poll operations_get with operation ${claim.earlier.commitOperationId} until it settles; if it created the item, use that one. confirm_new_item does not apply while it is unsettled.`,
          },
        );
      case 'unconfirmed':
        return outcome.failed(
          'CONFIRMATION_MISMATCH',
          `Draft ${draftId} is not the draft the user confirmed (or nobody was asked); nothing was sent.`,
          {
            resolution:
              'Read the draft with workitems_get, then call again without the earlier confirmation so that the user is asked about it as it is now.',
          },
        );
      case 'aborted':
        return outcome.failed(
          'EXECUTION_TIMEOUT',
          'Time ran out before the commit was sent; nothing changed.',
        );
      case 'claimed':
        return this.#send(principal, claim.draft, mode, operation, signal);
    }
  }

  /** The draft, if this caller may commit it; otherwise the refusal (a draft they may not read is "not found"). */
  async #writableDraft(
    principal: Principal,
    draftId: string,
  ): Promise<{ kind: 'draft'; draft: Draft } | { kind: 'refused'; outcome: ToolOutcome<CommitResult> }> {
    const notFound = outcome.rejected<CommitResult>(
      'WORKITEM_NOT_FOUND',
      `No draft ${draftId} is visible to you.`,
      {
        resolution: 'Check the draft id, or prepare the item with workitems_create_draft.',
      },
    );
    const draft = await draftStore.find(this.deps.db, principal.tenant, draftId);
    if (!draft) return { kind: 'refused', outcome: notFound };
    // Permissions are checked again at commit: a draft does not keep a right the author has since lost.
    // A draft in a project the caller may not even read is hidden like one that does not exist.
    const access = await this.deps.projects.access(principal, draft.projectId, 'write');
    if (!access.ok) {
      return { kind: 'refused', outcome: access.reason === 'invisible' ? notFound : access.refusal };
    }
    return { kind: 'draft', draft };
  }

  /** Asks the tracker what happened to a commit whose answer was lost (idempotent projects only). */
  async reconcile(
    operation: OperationSnapshot,
    signal: AbortSignal,
  ): Promise<ReconcileVerdict<CommitResult>> {
    const { db, tracker, clock } = this.deps;
    const draft = await draftStore.findByCommitOperation(db, operation.tenant, operation.id);
    if (!draft) return { settled: true, outcome: notApplied() };
    const mode = (await tracker.mode(draft.tenant, draft.projectId)) ?? 'unprotected';
    if (draft.state === 'committed' && draft.itemId) {
      const item = await tracker.getItem(draft.tenant, draft.itemId);
      if (item) return { settled: true, outcome: committed(draft, item, mode) };
    }
    if (mode === 'unprotected') {
      return {
        settled: false,
        escalate: true,
        note:
          `Tracker project ${draft.projectId} cannot be asked by request id and does not deduplicate. ` +
          `A person must check whether "${draft.fields.title}" exists in ${draft.projectId} and settle this operation; ` +
          'nothing re-sends it.',
      };
    }
    let status: Awaited<ReturnType<typeof tracker.requestStatus>>;
    try {
      status = await tracker.requestStatus(draft.tenant, draft.projectId, operation.id, signal);
    } catch (error) {
      if (!isTrackerFailure(error)) throw error;
      return { settled: false, note: `The tracker did not answer the status query (${error.message}).` };
    }
    if (!status.received) {
      await draftStore.release(db, draft.tenant, operation.id);
      return { settled: true, outcome: notApplied() };
    }
    await draftStore.markCommitted(db, draft.tenant, operation.id, status.item.itemId, clock.now());
    return { settled: true, outcome: committed(draft, status.item, mode) };
  }

  /**
   * Whether an operator's decision on a parked commit can be followed, asked before it is recorded.
   * Rejected always can. Completed must name the item it created: an item of the draft's project that
   * no other draft became, so the draft can record it; anything else is refused, because a commit
   * settled as done with no item the draft can point to would leave the draft committing forever.
   */
  async reviewRefusal(
    operation: OperationSnapshot,
    decision: ReviewDecisionView,
  ): Promise<{ readonly refuse: string } | null> {
    if (decision.resolution === 'rejected') return null;
    const { db, tracker } = this.deps;
    const draft = await draftStore.findByCommitOperation(db, operation.tenant, operation.id);
    if (draft?.state !== 'committing') return null;
    const project = draft.projectId;
    const otherwise = 'or resolve it rejected if the tracker holds no such item.';
    if (!decision.reference) {
      return {
        refuse: `A completed commit of draft ${draft.draftId} must name the item it created: give its id (${project}-<number>) as reference, ${otherwise}`,
      };
    }
    const item = await tracker.getItem(draft.tenant, decision.reference);
    if (!item || item.projectKey !== project) {
      return {
        refuse: `Reference ${decision.reference} matches no item of tracker project ${project}: give the id of the item "${draft.fields.title}" became, ${otherwise}`,
      };
    }
    const owner = await draftStore.findByItem(db, draft.tenant, item.itemId);
    if (owner && owner.draftId !== draft.draftId) {
      return {
        refuse: `Item ${item.itemId} is already the item of draft ${owner.draftId}: give the id of the item "${draft.fields.title}" became, ${otherwise}`,
      };
    }
    return null;
  }

  /**
   * An operator settled a commit whose outcome was unknown. Rejected: the item was never created, so the
   * draft opens again for a new commit. Completed with the item id they found (checked by
   * reviewRefusal): the draft records it.
   */
  async followReview(operation: OperationSnapshot, decision: ReviewDecisionView): Promise<void> {
    const { db, tracker, clock } = this.deps;
    if (decision.resolution === 'rejected') {
      await draftStore.release(db, operation.tenant, operation.id);
      return;
    }
    if (!decision.reference) return;
    const draft = await draftStore.findByCommitOperation(db, operation.tenant, operation.id);
    const item = draft ? await tracker.getItem(draft.tenant, decision.reference) : null;
    if (draft && item && item.projectKey === draft.projectId) {
      await draftStore.markCommitted(db, draft.tenant, operation.id, item.itemId, clock.now());
    }
  }

  async #send(
    principal: Principal,
    draft: Draft,
    mode: TrackerMode,
    operation: OperationHandle,
    signal: AbortSignal,
  ): Promise<ToolOutcome<CommitResult>> {
    const { db, tracker, clock } = this.deps;
    try {
      const { item } = await tracker.createItem(
        {
          tenant: draft.tenant,
          projectKey: draft.projectId,
          requestId: operation.id,
          createdBy: principal.subject,
          fields: draft.fields,
        },
        signal,
      );
      await draftStore.markCommitted(db, draft.tenant, operation.id, item.itemId, clock.now());
      await operation.addExternalRef('tracker', item.itemId);
      return committed(draft, item, mode);
    } catch (error) {
      if (error instanceof ExternalOutcomeUnknownError) return unknownOutcome(draft, mode);
      if (error instanceof ExternalUnavailableError) {
        await draftStore.release(db, draft.tenant, operation.id);
        return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The tracker is unavailable; nothing was created.', {
          resolution: 'Retry later with the same idempotency_key.',
        });
      }
      if (error instanceof ExternalRejectedError) {
        await draftStore.release(db, draft.tenant, operation.id);
        return outcome.rejected(
          'TRACKER_REJECTED',
          `The tracker refused the item (${error.code}): ${error.message}.`,
          {
            resolution:
              'Tell the user why; change the draft or ask the tracker administrators. Nothing was created.',
          },
        );
      }
      throw error;
    }
  }

  async #alreadyCommitted(
    draft: Draft,
    operationId: string,
    mode: TrackerMode,
  ): Promise<ToolOutcome<CommitResult>> {
    // The same operation delivered again (a resumed delivery) gets its own result, not a refusal.
    const item = draft.itemId ? await this.deps.tracker.getItem(draft.tenant, draft.itemId) : null;
    if (item && draft.commitOperationId === operationId) return committed(draft, item, mode);
    return outcome.rejected(
      'DRAFT_ALREADY_COMMITTED',
      `Draft ${draft.draftId} was already committed as ${draft.itemId}.`,
      { resolution: `Use workitems_get with ${draft.itemId}; do not commit this draft again.` },
    );
  }
}

function isTrackerFailure(error: unknown): error is Error {
  return (
    error instanceof ExternalUnavailableError ||
    error instanceof ExternalOutcomeUnknownError ||
    error instanceof ExternalRejectedError
  );
}
