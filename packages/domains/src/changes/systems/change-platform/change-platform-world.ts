import type { ChangePlatformDeps } from './change-platform.ts';
import { FIRST_CHANGE_NUMBER } from './change-platform-migration.ts';
import { CHANGE_PLATFORM, type ChangeDraft } from './change-record.ts';
import { ChangeRecordStore } from './change-record-store.ts';
import { allocateChangeId, insertRecord } from './change-record-writes.ts';

/**
 * What happens on the change platform without our gateway asking: approvers decide, the demo
 * world is laid out, the platform is wiped. Driven by seed/reset and POST /test-api/simulate.
 */
export class ChangePlatformWorld {
  readonly #deps: ChangePlatformDeps;
  readonly #records: ChangeRecordStore;

  constructor(deps: ChangePlatformDeps) {
    this.#deps = deps;
    this.#records = new ChangeRecordStore(deps.db);
  }

  /** The approval group decides a pending change. Returns the new state, or null if it was not pending. */
  async decideApproval(changeId: string, approve: boolean): Promise<'scheduled' | 'declined' | null> {
    const state = approve ? 'scheduled' : 'declined';
    const changed = await this.#deps.db.execute(
      `UPDATE ext_change_records SET state = ?, updated_at = ? WHERE change_id = ? AND state = 'pending_approval'`,
      [state, this.#deps.clock.now(), changeId],
    );
    if (changed === 0) return null;
    const record = await this.#records.byId(changeId);
    await this.#deps.ledger.record({
      system: CHANGE_PLATFORM,
      action: approve ? 'approve' : 'decline',
      ref: changeId,
      tenant: record!.tenant,
      requestId: null,
      data: { approval_group: record!.approval_group },
    });
    return state;
  }

  /** Inserts a complete change directly (demo world): no operation, no ledger entry. */
  async seedChange(
    draft: ChangeDraft,
    state: 'pending_approval' | 'scheduled',
    plans: { implementation: string; rollback: string },
  ): Promise<string> {
    return this.#deps.db.transaction(async (tx) => {
      const changeId = await allocateChangeId(tx);
      await insertRecord(tx, changeId, null, draft, state, this.#deps.clock.now());
      await tx.execute(
        'UPDATE ext_change_records SET implementation_plan = ?, rollback_plan = ? WHERE change_id = ?',
        [plans.implementation, plans.rollback, changeId],
      );
      return changeId;
    });
  }

  /** Forgets every record, step and freeze; numbering starts again at CHG-10001. */
  async reset(): Promise<void> {
    await this.#deps.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM ext_change_steps');
      await tx.execute('DELETE FROM ext_change_records');
      await tx.execute('DELETE FROM ext_change_freezes');
      await tx.execute('UPDATE ext_change_counter SET last_number = ? WHERE id = 1', [
        FIRST_CHANGE_NUMBER - 1,
      ]);
    });
  }
}
