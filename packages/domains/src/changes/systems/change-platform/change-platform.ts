import type { EffectsLedger, FaultInjector } from '@toolgate/simulation';
import { throughFaults } from '@toolgate/simulation';
import type { Clock, SqlDatabase, SqlExecutor } from 'toolgate';
import { ChangeFreezeCalendar } from './change-freeze-calendar.ts';
import {
  CHANGE_PLATFORM,
  type ChangeDraft,
  type ChangeRecord,
  type CreationStep,
  type OperationStatus,
} from './change-record.ts';
import { type ChangePage, ChangeRecordStore, type ChangeSearchFilter } from './change-record-store.ts';
import { allocateChangeId, insertRecord } from './change-record-writes.ts';

export interface ChangePlatformDeps {
  readonly db: SqlDatabase;
  readonly faults: FaultInjector;
  readonly ledger: EffectsLedger;
  readonly clock: Clock;
}

interface AppliedStep {
  readonly changeId: string;
  readonly tenant: string;
  /** What the effects ledger keeps about this step (never plan text). */
  readonly data: Record<string, unknown>;
}

/**
 * The simulated change-management platform. Creating a change takes four calls (create the record,
 * attach the implementation plan, attach the rollback plan, request approval or schedule), like the
 * backend of seed 003. Every step is applied at most once per (operation id, step): a repeated step
 * answers what the first one did. Every call goes through the armed faults (target
 * `change_platform`, matched on `{action: <step>}`), and every applied step is written to the
 * effects ledger with the operation id.
 */
export class ChangePlatform {
  readonly records: ChangeRecordStore;
  readonly freezes: ChangeFreezeCalendar;
  readonly #deps: ChangePlatformDeps;

  constructor(deps: ChangePlatformDeps) {
    this.#deps = deps;
    this.records = new ChangeRecordStore(deps.db);
    this.freezes = new ChangeFreezeCalendar(deps.db, deps.clock);
  }

  /** Step 1: opens a draft record for this operation and returns its change id. */
  async createRecord(operationId: string, draft: ChangeDraft, signal: AbortSignal): Promise<string> {
    return this.#applyStep(
      operationId,
      'create_record',
      signal,
      async (changeId) => changeId,
      async (tx, now) => {
        const changeId = await allocateChangeId(tx);
        await insertRecord(tx, changeId, operationId, draft, 'draft', now);
        return {
          changeId,
          tenant: draft.tenant,
          data: {
            service_id: draft.service_id,
            environment: draft.environment,
            summary: draft.summary,
            scheduled_start: draft.start_time,
            duration_minutes: draft.duration_minutes,
            effective_risk: draft.effective_risk,
            requested_by: draft.requested_by,
          },
        };
      },
    );
  }

  /** Step 2. */
  async attachImplementationPlan(operationId: string, changeId: string, plan: string, signal: AbortSignal) {
    await this.#attach(
      operationId,
      changeId,
      'attach_implementation_plan',
      'implementation_plan',
      plan,
      signal,
    );
  }

  /** Step 3. */
  async attachRollbackPlan(operationId: string, changeId: string, plan: string, signal: AbortSignal) {
    await this.#attach(operationId, changeId, 'attach_rollback_plan', 'rollback_plan', plan, signal);
  }

  /**
   * Step 4: requests approval (state `pending_approval`) or, when none is needed, schedules the
   * change (state `scheduled`). Only now does the change become visible to readers. Answers the
   * record as it stands after the step, as the platform reports it (armed faults apply to it).
   */
  async submit(operationId: string, changeId: string, signal: AbortSignal): Promise<ChangeRecord> {
    const record = await this.#draft(changeId);
    if (record.implementation_plan === null || record.rollback_plan === null) {
      throw new Error(`change ${changeId} cannot be submitted before both plans are attached`);
    }
    const step = record.approval_required ? 'request_approval' : 'schedule';
    const answer = (id: string): Promise<ChangeRecord> => this.#draft(id);
    return this.#applyStep(operationId, step, signal, answer, async (tx, now) => {
      const state = record.approval_required ? 'pending_approval' : 'scheduled';
      await tx.execute('UPDATE ext_change_records SET state = ?, updated_at = ? WHERE change_id = ?', [
        state,
        now,
        changeId,
      ]);
      const data = record.approval_required
        ? { approval_group: record.approval_group }
        : { scheduled_start: record.start_time };
      return { changeId, tenant: record.tenant, data };
    });
  }

  /** Asks the platform what it did for an operation id (reconciliation). */
  async operationStatus(operationId: string, signal: AbortSignal): Promise<OperationStatus | null> {
    return throughFaults(this.#deps.faults, CHANGE_PLATFORM, { action: 'get_operation_status' }, signal, () =>
      this.records.byOperation(operationId),
    );
  }

  async searchChanges(filter: ChangeSearchFilter, signal: AbortSignal): Promise<ChangePage> {
    return throughFaults(this.#deps.faults, CHANGE_PLATFORM, { action: 'search_changes' }, signal, () =>
      this.records.search(filter),
    );
  }

  async getChange(tenant: string, changeId: string, signal: AbortSignal) {
    return throughFaults(this.#deps.faults, CHANGE_PLATFORM, { action: 'get_change' }, signal, () =>
      this.records.visible(tenant, changeId),
    );
  }

  /** Gives up a half-made change after the platform refused a step; it stays invisible for good. */
  async abandon(operationId: string): Promise<void> {
    await this.#deps.db.execute(
      `UPDATE ext_change_records SET state = 'abandoned', updated_at = ? WHERE operation_id = ? AND state = 'draft'`,
      [this.#deps.clock.now(), operationId],
    );
  }

  async #attach(
    operationId: string,
    changeId: string,
    step: 'attach_implementation_plan' | 'attach_rollback_plan',
    column: 'implementation_plan' | 'rollback_plan',
    plan: string,
    signal: AbortSignal,
  ): Promise<void> {
    const record = await this.#draft(changeId);
    await this.#applyStep(
      operationId,
      step,
      signal,
      async () => undefined,
      async (tx, now) => {
        await tx.execute(`UPDATE ext_change_records SET ${column} = ?, updated_at = ? WHERE change_id = ?`, [
          plan,
          now,
          changeId,
        ]);
        return { changeId, tenant: record.tenant, data: { characters: plan.length } };
      },
    );
  }

  async #draft(changeId: string) {
    const record = await this.records.byId(changeId);
    if (!record) throw new Error(`change ${changeId} does not exist on the platform`);
    return record;
  }

  /**
   * Applies one step once per (operation id, step): the step row is claimed with an atomic insert
   * in the same transaction as the change, so a repeat (a retry, a resumed delivery, a late
   * duplicate) finds the claim and answers what the first application produced (`answer` of its
   * change id).
   */
  async #applyStep<T>(
    operationId: string,
    step: CreationStep,
    signal: AbortSignal,
    answer: (changeId: string) => Promise<T>,
    apply: (tx: SqlExecutor, now: number) => Promise<AppliedStep>,
  ): Promise<T> {
    const { db, faults, ledger, clock } = this.#deps;
    return throughFaults(faults, CHANGE_PLATFORM, { action: step }, signal, async () => {
      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        const claimed = await tx.query(
          'INSERT INTO ext_change_steps (operation_id, step, applied_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING step',
          [operationId, step, now],
        );
        if (claimed.length === 0) {
          const [done] = await tx.query<{ change_id: string }>(
            'SELECT change_id FROM ext_change_steps WHERE operation_id = ? AND step = ?',
            [operationId, step],
          );
          return { fresh: null, changeId: String(done!.change_id) };
        }
        const applied = await apply(tx, now);
        await tx.execute('UPDATE ext_change_steps SET change_id = ? WHERE operation_id = ? AND step = ?', [
          applied.changeId,
          operationId,
          step,
        ]);
        return { fresh: applied, changeId: applied.changeId };
      });
      // The ledger lives in the same database but is written after the commit: a transaction on
      // SQLite holds the only connection, and the ledger writes through the database, not the tx.
      if (outcome.fresh) {
        await ledger.record({
          system: CHANGE_PLATFORM,
          action: step,
          ref: outcome.changeId,
          tenant: outcome.fresh.tenant,
          requestId: operationId,
          data: outcome.fresh.data,
        });
      }
      return answer(outcome.changeId);
    });
  }
}
