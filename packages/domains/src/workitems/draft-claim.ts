import type { SqlDatabase } from 'toolgate';
import { type ConfirmedCommit, draftHash } from './commit-confirmation.ts';
import { type Draft, draftStore } from './draft-store.ts';
import { DUPLICATE_WINDOW_SECONDS } from './duplicate-policy.ts';

export type Claim =
  | { readonly kind: 'claimed'; readonly draft: Draft }
  | { readonly kind: 'already_committed'; readonly draft: Draft }
  | { readonly kind: 'pending'; readonly draft: Draft }
  | { readonly kind: 'duplicate'; readonly earlier: Draft }
  /** Another draft of the same content is being committed and its outcome is not established. */
  | { readonly kind: 'pending_elsewhere'; readonly earlier: Draft }
  /** The user did not confirm this draft as it is now (or nobody was asked). */
  | { readonly kind: 'unconfirmed' }
  | { readonly kind: 'aborted' };

export interface ClaimOptions {
  readonly confirmNewItem: boolean;
  /** What the user confirmed; a draft is sent only as they saw it. */
  readonly confirmed: ConfirmedCommit | null;
  readonly now: number;
  /** The project's tracker deduplicates by request id, so a delivery of the same operation may send again. */
  readonly resend: boolean;
  readonly signal: AbortSignal;
}

/**
 * Decides, in one transaction with the state it reads, whether this operation may send the draft to
 * the tracker: the draft's state, the duplicate window and the move to `committing` are checked and
 * written together. A commit of the same content whose outcome is not established blocks this one
 * even when the caller confirmed a new item: that earlier item may exist, and only settling it tells. A
 * draft is sent only as the user confirmed it (every field), beside only the duplicate they were shown. On PostgreSQL the project row is locked so that two commits of the same content
 * in one project cannot both pass the duplicate check; SQLite serializes transactions already.
 */
export async function claimDraft(
  db: SqlDatabase,
  draft: Draft,
  operationId: string,
  options: ClaimOptions,
): Promise<Claim> {
  return db.transaction(async (tx): Promise<Claim> => {
    await tx.lockRows('SELECT project_id FROM workitems_projects WHERE tenant = ? AND project_id = ?', [
      draft.tenant,
      draft.projectId,
    ]);
    const current = await draftStore.find(tx, draft.tenant, draft.draftId);
    if (!current) throw new Error(`draft ${draft.draftId} vanished during its commit`);
    if (current.state === 'committed') return { kind: 'already_committed', draft: current };
    if (current.state === 'committing') {
      const sameOperation = current.commitOperationId === operationId;
      return sameOperation && options.resend
        ? { kind: 'claimed', draft: current }
        : { kind: 'pending', draft: current };
    }
    const inFlight = await draftStore.sameContentCommitting(tx, current);
    if (inFlight) {
      return options.confirmNewItem
        ? { kind: 'pending_elsewhere', earlier: inFlight }
        : { kind: 'duplicate', earlier: inFlight };
    }
    const { confirmed } = options;
    if (!confirmed || confirmed.draftHash !== draftHash(current)) return { kind: 'unconfirmed' };
    if (!options.confirmNewItem) {
      const since = options.now - DUPLICATE_WINDOW_SECONDS * 1000;
      const earlier = await draftStore.recentSameContent(tx, current, since);
      // The user agreed to file this beside the item they were shown; any other one stops it.
      if (earlier && earlier.draftId !== confirmed.duplicateOf) return { kind: 'duplicate', earlier };
    }
    // The gateway has already answered a timed-out call; sending now would be an effect nobody awaits.
    if (options.signal.aborted) return { kind: 'aborted' };
    if (!(await draftStore.markCommitting(tx, current, operationId, options.now))) {
      throw new Error(`draft ${draft.draftId} changed inside its own transaction`);
    }
    return { kind: 'claimed', draft: current };
  });
}
