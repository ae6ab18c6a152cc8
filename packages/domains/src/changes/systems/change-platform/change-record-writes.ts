import type { SqlExecutor } from 'toolgate';
import type { ChangeDraft, RecordState } from './change-record.ts';
import { changeIdFor, changeNumber } from './change-record-store.ts';

/** Hands out the next change id; the counter row serializes concurrent creators. */
export async function allocateChangeId(tx: SqlExecutor): Promise<string> {
  const [counter] = await tx.query<{ last_number: number }>(
    'UPDATE ext_change_counter SET last_number = last_number + 1 WHERE id = 1 RETURNING last_number',
  );
  if (!counter) throw new Error('ext_change_counter has no row; the change platform migration did not run');
  return changeIdFor(Number(counter.last_number));
}

/** Inserts a record without plans; they are attached by later steps. */
export async function insertRecord(
  tx: SqlExecutor,
  changeId: string,
  operationId: string | null,
  draft: ChangeDraft,
  state: RecordState,
  now: number,
): Promise<void> {
  await tx.execute(
    `INSERT INTO ext_change_records (change_id, change_number, tenant, operation_id, requested_by, service_id,
       environment, summary, start_time, start_at, duration_minutes, requested_risk, effective_risk,
       approval_required, approval_group, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      changeId,
      changeNumber(changeId),
      draft.tenant,
      operationId,
      draft.requested_by,
      draft.service_id,
      draft.environment,
      draft.summary,
      draft.start_time,
      draft.start_at,
      draft.duration_minutes,
      draft.requested_risk,
      draft.effective_risk,
      draft.approval_required ? 1 : 0,
      draft.approval_group,
      state,
      now,
      now,
    ],
  );
}
