import type { Actor, Principal } from '../auth/principal.ts';
import type { ConfirmationAsk } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { ErrorCodeSpec } from '../contract/error-catalog.ts';
import type { SqlDatabase, SqlExecutor } from '../store/sql-database.ts';
import type { AuditEntry } from '../telemetry/audit.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { Clock } from '../time/clock.ts';
import type { AuditLog } from './audit-log.ts';
import {
  confirmationDeclinedEnvelope,
  confirmationExpiredEnvelope,
  confirmationMismatchEnvelope,
} from './operation-envelopes.ts';
import { type OperationRecord, type OperationRow, recordFromRow } from './operation-record.ts';

/** Where a parked question stands. */
export type ParkedState = 'pending' | 'accepted' | 'declined' | 'expired' | 'mismatch';

/** A call parked for an approver: everything its execution needs, and how it was answered. */
export interface ParkedConfirmation {
  readonly operationId: string;
  readonly tenant: string;
  /** The principal of the call, as its token said: the confirmed execution runs as this caller. */
  readonly requester: Principal;
  readonly tool: string;
  /** The validated arguments (defaults applied, the idempotency key included). */
  readonly args: Record<string, unknown>;
  readonly ask: ConfirmationAsk;
  readonly digest: string;
  readonly state: ParkedState;
  readonly choice: string | null;
  readonly answeredBy: string | null;
  readonly note: string | null;
  readonly askedAt: number;
  readonly expiresAt: number;
  readonly answeredAt: number | null;
}

/** What parking writes besides the operation record. */
export type ParkRequest = Pick<
  ParkedConfirmation,
  'operationId' | 'requester' | 'tool' | 'args' | 'ask' | 'digest' | 'askedAt' | 'expiresAt'
>;

interface ParkedRow {
  [column: string]: unknown;
  operation_id: string;
  tenant: string;
  requester: string;
  principal: string;
  tool: string;
  arguments: string;
  question: string;
  digest: string;
  state: string;
  choice: string | null;
  answered_by: string | null;
  note: string | null;
  asked_at: number;
  expires_at: number;
  answered_at: number | null;
}

const UPSERT = `INSERT INTO operator_confirmations (operation_id, tenant, requester, principal, tool, arguments,
  question, digest, state, choice, answered_by, note, asked_at, expires_at, answered_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', NULL, NULL, NULL, ?, ?, NULL)
  ON CONFLICT (operation_id) DO UPDATE SET principal = excluded.principal, arguments = excluded.arguments,
  question = excluded.question, digest = excluded.digest, state = 'pending', choice = NULL, answered_by = NULL,
  note = NULL, asked_at = excluded.asked_at, expires_at = excluded.expires_at, answered_at = NULL`;

/** A parked operation leaves `awaiting_confirmation` once, whoever moves it: this is that move's guard. */
const SETTLE_PARKED = `UPDATE operations SET status = ?, envelope = ?, lease_expires_at = NULL, next_check_at = NULL,
  updated_at = ?, expires_at = ? WHERE id = ? AND status = 'awaiting_confirmation'`;

const ANSWER = `UPDATE operator_confirmations SET state = ?, choice = ?, answered_by = ?, note = ?, answered_at = ?
  WHERE operation_id = ? AND state = 'pending'`;

export interface OperatorConfirmationsDeps {
  readonly db: SqlDatabase;
  readonly clock: Clock;
  readonly catalog: ReadonlyMap<string, ErrorCodeSpec>;
  readonly audit: AuditLog;
  readonly retentionSeconds: number;
  readonly metrics?: GatewayMetrics;
}

/** How an approver answered, for the record and the audit trail. */
export interface ApproverAnswer {
  readonly approver: Principal;
  readonly note: string | null;
  readonly traceId?: string | null;
}

/**
 * The questions parked for approvers, beside the operation records they hold. Every way out of
 * `awaiting_confirmation` (confirmed, refused, expired) is one conditional update of the operation in a
 * transaction with the question's answer and its audit entry: two approvers answering at once, or an
 * approver and the expiry sweep, move it once.
 */
export class OperatorConfirmations {
  constructor(private readonly deps: OperatorConfirmationsDeps) {}

  /** Parks the reserved operation `id` (in the caller's transaction): the record and its question. */
  async park(
    tx: SqlExecutor,
    request: ParkRequest,
    envelope: OutcomeEnvelope,
    alongside?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<boolean> {
    const { operationId: id, requester } = request;
    const changed = await tx.execute(
      `UPDATE operations SET status = 'awaiting_confirmation', envelope = ?, lease_expires_at = NULL,
        next_check_at = NULL, updated_at = ?, expires_at = ? WHERE id = ? AND status = 'in_progress'`,
      [JSON.stringify(envelope), request.askedAt, request.expiresAt, id],
    );
    if (changed !== 1) return false;
    await tx.execute(UPSERT, [
      id,
      requester.tenant,
      requester.subject,
      JSON.stringify(storedPrincipal(requester)),
      request.tool,
      JSON.stringify(request.args),
      JSON.stringify(request.ask),
      request.digest,
      request.askedAt,
      request.expiresAt,
    ]);
    if (alongside) await alongside(tx);
    return true;
  }

  /** The tenant's parked question of operation `id`, answered or not; null for another tenant's. */
  async find(tenant: string, id: string): Promise<ParkedConfirmation | null> {
    const rows = await this.deps.db.query<ParkedRow>(
      'SELECT * FROM operator_confirmations WHERE operation_id = ? AND tenant = ?',
      [id, tenant],
    );
    return rows[0] ? parkedFromRow(rows[0]) : null;
  }

  /** The tenant's questions still waiting for an approver, oldest first (expired ones settled first). */
  async pending(tenant: string, limit: number): Promise<ParkedConfirmation[]> {
    await this.expireDue(this.deps.clock.now(), limit, tenant);
    const rows = await this.deps.db.query<ParkedRow>(
      `SELECT * FROM operator_confirmations WHERE tenant = ? AND state = 'pending' ORDER BY operation_id LIMIT ?`,
      [tenant, limit],
    );
    return rows.map(parkedFromRow);
  }

  /**
   * Moves the parked operation to `in_progress` for the one approver who confirmed it, with its lease,
   * recording the answer and its audit entry in the same transaction; null when it is no longer parked
   * (answered meanwhile, or expired).
   */
  async claim(
    id: string,
    choice: string | null,
    answer: ApproverAnswer,
    run: { readonly correlationId: string; readonly leaseExpiresAt: number },
    entry: (record: OperationRecord) => AuditEntry,
  ): Promise<OperationRecord | null> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const rows = await tx.query<OperationRow>(
        `UPDATE operations SET status = 'in_progress', envelope = NULL, lease_expires_at = ?, next_check_at = ?,
          correlation_id = ?, updated_at = ? WHERE id = ? AND status = 'awaiting_confirmation' AND expires_at > ?
          RETURNING *`,
        [run.leaseExpiresAt, run.leaseExpiresAt, run.correlationId, now, id, now],
      );
      if (!rows[0]) return null;
      const record = recordFromRow(rows[0]);
      await tx.execute(ANSWER, ['accepted', choice, answer.approver.subject, answer.note, now, id]);
      await this.deps.audit.append(entry(record), tx);
      return record;
    });
  }

  /** An approver refused: the operation settles `rejected` / CONFIRMATION_DECLINED; false when no longer parked. */
  async decline(record: OperationRecord, answer: ApproverAnswer): Promise<boolean> {
    const envelope = confirmationDeclinedEnvelope(record, this.deps.catalog, answer.approver.subject);
    return this.#settle(record, 'declined', envelope, byApprover(answer));
  }

  /**
   * The approver confirmed, but the tool's question now comes out otherwise (what the domain found
   * changed): nothing runs, and the operation settles `failed` / CONFIRMATION_MISMATCH, which changed
   * nothing, so that a retry of the key parks the request as it is now; false when no longer parked.
   */
  async mismatch(record: OperationRecord, answer: ApproverAnswer): Promise<boolean> {
    const envelope = confirmationMismatchEnvelope(record, this.deps.catalog);
    return this.#settle(record, 'mismatch', envelope, byApprover(answer));
  }

  /**
   * Settles a parked operation whose question expired (`rejected` / CONFIRMATION_EXPIRED), when it is
   * next touched; answers the record as it stands afterwards.
   */
  async expireIfDue(record: OperationRecord): Promise<OperationRecord> {
    if (record.status !== 'awaiting_confirmation' || record.expiresAt > this.deps.clock.now()) return record;
    await this.#expire(record);
    const rows = await this.deps.db.query<OperationRow>('SELECT * FROM operations WHERE id = ?', [record.id]);
    return rows[0] ? recordFromRow(rows[0]) : record;
  }

  /** The periodic sweep (and the list): settles up to `limit` expired questions; answers how many. */
  async expireDue(now: number, limit: number, tenant?: string): Promise<number> {
    const rows = await this.deps.db.query<OperationRow>(
      `SELECT * FROM operations WHERE status = 'awaiting_confirmation' AND expires_at <= ?${tenant ? ' AND tenant = ?' : ''}
        ORDER BY expires_at LIMIT ?`,
      tenant ? [now, tenant, limit] : [now, limit],
    );
    let expired = 0;
    for (const row of rows) if (await this.#expire(recordFromRow(row))) expired += 1;
    return expired;
  }

  /** Answered questions whose operation was purged go with it. */
  async purgeOrphans(): Promise<number> {
    return this.deps.db.execute(
      `DELETE FROM operator_confirmations WHERE state <> 'pending'
        AND NOT EXISTS (SELECT 1 FROM operations o WHERE o.id = operator_confirmations.operation_id)`,
    );
  }

  #expire(record: OperationRecord): Promise<boolean> {
    return this.#settle(record, 'expired', confirmationExpiredEnvelope(record, this.deps.catalog), {
      subject: 'toolgate',
      actor: 'service',
      answeredBy: null,
      note: null,
      traceId: null,
    });
  }

  async #settle(
    record: OperationRecord,
    state: 'declined' | 'expired' | 'mismatch',
    envelope: OutcomeEnvelope,
    by: {
      subject: string;
      actor: Actor;
      answeredBy: string | null;
      note: string | null;
      traceId: string | null;
    },
  ): Promise<boolean> {
    const { db, clock, retentionSeconds, audit, metrics } = this.deps;
    const now = clock.now();
    const settled = await db.transaction(async (tx) => {
      const expiredOnly = state === 'expired' ? ' AND expires_at <= ?' : '';
      const changed = await tx.execute(`${SETTLE_PARKED}${expiredOnly}`, [
        envelope.status,
        JSON.stringify(envelope),
        now,
        now + retentionSeconds * 1000,
        record.id,
        ...(state === 'expired' ? [now] : []),
      ]);
      if (changed !== 1) return false;
      const [question] = await tx.query<ParkedRow>(
        'SELECT digest FROM operator_confirmations WHERE operation_id = ?',
        [record.id],
      );
      await tx.execute(ANSWER, [state, null, by.answeredBy, by.note, now, record.id]);
      await audit.append(
        {
          at: new Date(now).toISOString(),
          correlationId: record.correlationId,
          tenant: record.tenant,
          subject: by.subject,
          actor: by.actor,
          action: 'operations_confirmation_answer',
          status: envelope.status,
          code: envelope.code,
          operationId: record.id,
          replayed: false,
          tool: record.tool,
          contractVersion: record.contractVersion,
          traceId: by.traceId,
          detail: {
            owner: record.subject,
            confirmation: {
              via: 'operator',
              outcome: state,
              digest: question?.digest ?? null,
              ...(by.answeredBy ? { answered_by: by.answeredBy } : {}),
            },
            ...(by.note ? { note: by.note } : {}),
          },
        },
        tx,
      );
      return true;
    });
    if (settled) metrics?.confirmations.inc({ tool: record.tool, via: 'operator', outcome: state });
    return settled;
  }
}

/** The whole principal a parked call runs as once confirmed: every claim policies and the tool read. */
interface StoredPrincipal {
  readonly subject: string;
  readonly tenant: string;
  readonly actor: Actor;
  readonly scopes: string[];
  /** Absent in questions parked before groups were kept: those ran without them, and still do. */
  readonly groups?: string[];
  readonly application?: string;
}

function storedPrincipal(principal: Principal): StoredPrincipal {
  return {
    subject: principal.subject,
    tenant: principal.tenant,
    actor: principal.actor,
    scopes: [...principal.scopes],
    groups: [...(principal.groups ?? [])],
    ...(principal.application === undefined ? {} : { application: principal.application }),
  };
}

function principalFromStored(stored: StoredPrincipal): Principal {
  return {
    subject: stored.subject,
    tenant: stored.tenant,
    actor: stored.actor,
    scopes: new Set(stored.scopes),
    groups: stored.groups ?? [],
    ...(stored.application === undefined ? {} : { application: stored.application }),
  };
}

function parkedFromRow(row: ParkedRow): ParkedConfirmation {
  return {
    operationId: row.operation_id,
    tenant: row.tenant,
    requester: principalFromStored(JSON.parse(row.principal) as StoredPrincipal),
    tool: row.tool,
    args: JSON.parse(row.arguments) as Record<string, unknown>,
    ask: JSON.parse(row.question) as ConfirmationAsk,
    digest: row.digest,
    state: row.state as ParkedState,
    choice: row.choice,
    answeredBy: row.answered_by,
    note: row.note,
    askedAt: Number(row.asked_at),
    expiresAt: Number(row.expires_at),
    answeredAt: row.answered_at === null ? null : Number(row.answered_at),
  };
}

/** Who settled a parked operation by answering it: the approver, as the audit entry names them. */
function byApprover(answer: ApproverAnswer) {
  return {
    subject: answer.approver.subject,
    actor: answer.approver.actor,
    answeredBy: answer.approver.subject,
    note: answer.note,
    traceId: answer.traceId ?? null,
  };
}
