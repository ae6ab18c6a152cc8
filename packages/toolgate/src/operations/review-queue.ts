import type { ErrorCodeSpec } from '../contract/error-catalog.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import type { AuditLog } from './audit-log.ts';
import { type ReviewResolution, resolvedEnvelope } from './operation-envelopes.ts';
import { OPEN_SQL, type OperationRecord, type OperationRow, recordFromRow } from './operation-record.ts';

export interface ReviewDecision {
  readonly operationId: string;
  readonly resolution: ReviewResolution;
  readonly note: string;
  /** The operator's subject, from a verified token (or the CLI's stated name). */
  readonly operator: string;
  readonly now: number;
  /** What the operator found in the owning system, passed on to the tool's hook and audited. */
  readonly reference?: string | null;
  readonly traceId?: string | null;
}

export type ReviewResult =
  | { readonly ok: true; readonly record: OperationRecord }
  | { readonly ok: false; readonly reason: 'not_found' | 'not_reviewable'; readonly status?: string };

/**
 * The human end of reconciliation: operations whose outcome could not be established, and an
 * operator's decision about each. A decision settles the record (so a retry with the same key
 * replays it), is written to the review log and audited.
 */
export class ReviewQueue {
  constructor(
    private readonly db: SqlDatabase,
    private readonly catalog: ReadonlyMap<string, ErrorCodeSpec>,
    private readonly audit: AuditLog,
  ) {}

  async pending(tenant?: string): Promise<OperationRecord[]> {
    const rows = tenant
      ? await this.db.query<OperationRow>(
          "SELECT * FROM operations WHERE status = 'needs_review' AND tenant = ? ORDER BY id",
          [tenant],
        )
      : await this.db.query<OperationRow>(
          `SELECT * FROM operations WHERE ${OPEN_SQL} AND status = 'needs_review' ORDER BY id`,
        );
    return rows.map(recordFromRow);
  }

  /** Settles a record awaiting review (or still unknown, when the operator knows better). */
  async resolve(decision: ReviewDecision, retentionSeconds: number): Promise<ReviewResult> {
    const result = await this.db.transaction(async (tx): Promise<ReviewResult> => {
      const lock = tx.lockingClause('update');
      const rows = await tx.query<OperationRow>(`SELECT * FROM operations WHERE id = ?${lock}`, [
        decision.operationId,
      ]);
      if (!rows[0]) return { ok: false, reason: 'not_found' };
      const record = recordFromRow(rows[0]);
      if (record.status !== 'needs_review' && record.status !== 'outcome_unknown') {
        return { ok: false, reason: 'not_reviewable', status: record.status };
      }
      const envelope = resolvedEnvelope(record, this.catalog, decision.resolution, decision.note);
      await tx.execute(
        `UPDATE operations SET status = ?, envelope = ?, next_check_at = NULL, reconcile_note = ?,
          updated_at = ?, expires_at = ? WHERE id = ?`,
        [
          decision.resolution,
          JSON.stringify(envelope),
          `resolved by ${decision.operator}: ${decision.note}`,
          decision.now,
          decision.now + retentionSeconds * 1000,
          record.id,
        ],
      );
      await tx.execute(
        `INSERT INTO operation_reviews (operation_id, tenant, operator, previous_status, resolution, note, at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.tenant,
          decision.operator,
          record.status,
          decision.resolution,
          decision.note,
          decision.now,
        ],
      );
      const [updated] = await tx.query<OperationRow>('SELECT * FROM operations WHERE id = ?', [record.id]);
      const settled = recordFromRow(updated!);
      // Committed with the decision it records: a decision without its audit entry cannot exist.
      await this.audit.append(
        {
          at: new Date(decision.now).toISOString(),
          correlationId: settled.correlationId,
          tenant: settled.tenant,
          subject: decision.operator,
          actor: 'operator',
          action: 'operations_review_resolve',
          status: decision.resolution,
          code: settled.envelope?.code ?? null,
          operationId: settled.id,
          replayed: false,
          tool: settled.tool,
          contractVersion: settled.contractVersion,
          traceId: decision.traceId ?? null,
          detail: {
            owner: settled.subject,
            previous_status: record.status,
            ...(decision.reference ? { reference: decision.reference } : {}),
          },
        },
        tx,
      );
      return { ok: true, record: settled };
    });
    return result;
  }

  /** The review log of one operation, oldest first. */
  async history(operationId: string): Promise<Record<string, unknown>[]> {
    return this.db.query(
      'SELECT operator, previous_status, resolution, note, at FROM operation_reviews WHERE operation_id = ? ORDER BY at',
      [operationId],
    );
  }
}
