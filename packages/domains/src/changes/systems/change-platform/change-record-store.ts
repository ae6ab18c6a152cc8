import type { SqlExecutor } from 'toolgate';
import {
  type ChangeRecord,
  type CreationStep,
  type Environment,
  environmentSchema,
  type OperationStatus,
  RECORD_STATES,
  type RecordState,
  riskSchema,
  VISIBLE_STATES,
  type VisibleState,
} from './change-record.ts';

export interface ChangeSearchFilter {
  readonly tenant: string;
  readonly serviceId?: string;
  readonly environment?: Environment;
  readonly state?: VisibleState;
  /** Case-insensitive substring of the summary. */
  readonly text?: string;
  readonly scheduledFrom?: number;
  readonly scheduledTo?: number;
  /** Only changes numbered below this (the page cursor; newest first). */
  readonly beforeNumber?: number;
  readonly limit: number;
}

export interface ChangePage {
  readonly records: readonly ChangeRecord[];
  /** Number of the last record when more follow; null on the last page. */
  readonly nextBefore: number | null;
}

const VISIBLE_IN = `state IN (${VISIBLE_STATES.map((s) => `'${s}'`).join(', ')})`;

/** Reads of the platform's change records; every read is bounded and scoped to one tenant. */
export class ChangeRecordStore {
  constructor(private readonly db: SqlExecutor) {}

  /** A complete change of this tenant; drafts and abandoned records do not exist for callers. */
  async visible(tenant: string, changeId: string): Promise<ChangeRecord | null> {
    const rows = await this.db.query(
      `SELECT * FROM ext_change_records WHERE tenant = ? AND change_id = ? AND ${VISIBLE_IN}`,
      [tenant, changeId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async search(filter: ChangeSearchFilter): Promise<ChangePage> {
    // CAST keeps SQLite (STAT4) from re-preparing this ordered statement on every call.
    const where = ['tenant = CAST(? AS TEXT)', VISIBLE_IN];
    const params: unknown[] = [filter.tenant];
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      params.push(value);
    };
    if (filter.serviceId) add('service_id = CAST(? AS TEXT)', filter.serviceId);
    if (filter.environment) add('environment = CAST(? AS TEXT)', filter.environment);
    if (filter.state) add('state = CAST(? AS TEXT)', filter.state);
    if (filter.text)
      add(`LOWER(summary) LIKE CAST(? AS TEXT) ESCAPE '\\'`, `%${escapeLike(filter.text.toLowerCase())}%`);
    if (filter.scheduledFrom !== undefined) add('start_at >= ?', filter.scheduledFrom);
    if (filter.scheduledTo !== undefined) add('start_at < ?', filter.scheduledTo);
    if (filter.beforeNumber !== undefined) add('change_number < ?', filter.beforeNumber);
    params.push(filter.limit + 1);
    const rows = await this.db.query(
      `SELECT * FROM ext_change_records WHERE ${where.join(' AND ')} ORDER BY change_number DESC
       LIMIT CAST(? AS INTEGER)`,
      params,
    );
    const records = rows.slice(0, filter.limit).map(toRecord);
    const last = records.at(-1);
    return { records, nextBefore: rows.length > filter.limit && last ? changeNumber(last.change_id) : null };
  }

  /** What the platform knows about one operation id, whatever the record's state. */
  async byOperation(operationId: string): Promise<OperationStatus | null> {
    const rows = await this.db.query('SELECT * FROM ext_change_records WHERE operation_id = ?', [
      operationId,
    ]);
    if (!rows[0]) return null;
    const steps = await this.db.query<{ step: string }>(
      'SELECT step FROM ext_change_steps WHERE operation_id = ?',
      [operationId],
    );
    return { record: toRecord(rows[0]), stepsDone: steps.map((s) => s.step as CreationStep) };
  }

  async byId(changeId: string): Promise<ChangeRecord | null> {
    const rows = await this.db.query('SELECT * FROM ext_change_records WHERE change_id = ?', [changeId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }
}

export function changeIdFor(number: number): string {
  return `CHG-${number}`;
}

export function changeNumber(changeId: string): number {
  return Number(changeId.slice('CHG-'.length));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function toRecord(row: Record<string, unknown>): ChangeRecord {
  const state = String(row.state);
  if (!RECORD_STATES.includes(state as RecordState)) throw new Error(`unknown change state ${state}`);
  return {
    change_id: String(row.change_id),
    operation_id: row.operation_id === null ? null : String(row.operation_id),
    tenant: String(row.tenant),
    requested_by: String(row.requested_by),
    service_id: String(row.service_id),
    environment: environmentSchema.parse(row.environment),
    summary: String(row.summary),
    start_time: String(row.start_time),
    start_at: Number(row.start_at),
    duration_minutes: Number(row.duration_minutes),
    requested_risk: riskSchema.parse(row.requested_risk),
    effective_risk: riskSchema.parse(row.effective_risk),
    approval_required: Number(row.approval_required) === 1,
    approval_group: row.approval_group === null ? null : String(row.approval_group),
    state: state as RecordState,
    implementation_plan: row.implementation_plan === null ? null : String(row.implementation_plan),
    rollback_plan: row.rollback_plan === null ? null : String(row.rollback_plan),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}
