import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.ts';
import { canonicalJson } from '../contract/canonical-json.ts';
import type { ExceptionTarget } from '../contract/handler-exceptions.ts';
import type { SqlDatabase, SqlExecutor } from '../store/sql-database.ts';
import type { AuditEntry, AuditSink } from '../telemetry/audit.ts';
import type { Clock } from '../time/clock.ts';
import { newOperationId } from './operation-id.ts';

export const EXCEPTION_ID_PATTERN = /^exc_[0-9A-HJKMNP-TV-Z]{26}$/;

/** One granted exception as the operator API and the modules see it (times in RFC 3339, UTC). */
export interface PolicyException {
  readonly exception_id: string;
  readonly tenant: string;
  readonly kind: string;
  readonly target: ExceptionTarget;
  readonly starts_at: string;
  readonly ends_at: string;
  readonly reason: string;
  readonly granted_by: string;
  readonly granted_at: string;
  readonly revoked_by: string | null;
  readonly revoked_at: string | null;
}

/** Which exceptions apply to an action: of this kind, for exactly this target, holding `at`. */
export interface ExceptionQuery {
  readonly tenant: string;
  readonly kind: string;
  readonly target: ExceptionTarget;
  /** Epoch milliseconds the exception must cover (now, or e.g. the start of a scheduled action). */
  readonly at: number;
}

/** A validated grant request; times in epoch milliseconds. */
export interface ExceptionGrant {
  readonly kind: string;
  readonly target: ExceptionTarget;
  readonly starts_at: number;
  readonly ends_at: number;
  readonly reason: string;
}

/** An action about to go ahead under an exception: the operation it belongs to and who asked for it. */
export interface ExceptionUse {
  readonly exceptionId: string;
  readonly query: ExceptionQuery;
  readonly operationId: string | null;
  readonly principal: Principal;
  readonly tool: string;
}

export type RevokeAnswer =
  | { readonly kind: 'revoked'; readonly exception: PolicyException }
  | { readonly kind: 'already_revoked'; readonly exception: PolicyException }
  | { readonly kind: 'not_found' };

type ExceptionRow = {
  exception_id: string;
  tenant: string;
  kind: string;
  target: string;
  starts_at: number | string;
  ends_at: number | string;
  reason: string;
  granted_by: string;
  granted_at: number | string;
  revoked_by: string | null;
  revoked_at: number | string | null;
};

const COLUMNS = `exception_id, tenant, kind, target, starts_at, ends_at, reason, granted_by,
  granted_at, revoked_by, revoked_at`;
const COVERING = `SELECT ${COLUMNS} FROM granted_exceptions
  WHERE tenant = ? AND kind = ? AND target = ? AND revoked_at IS NULL
  AND starts_at <= ? AND ends_at > ?`;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
const coveringParams = (query: ExceptionQuery) => [
  query.tenant,
  query.kind,
  canonicalJson(query.target),
  query.at,
  query.at,
];

function exceptionFromRow(row: ExceptionRow): PolicyException {
  return {
    exception_id: row.exception_id,
    tenant: row.tenant,
    kind: row.kind,
    target: JSON.parse(row.target) as ExceptionTarget,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    reason: row.reason,
    granted_by: row.granted_by,
    granted_at: iso(row.granted_at),
    revoked_by: row.revoked_by,
    revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

/**
 * The exceptions in force for one action: not revoked, of the kind and exactly the target asked, whose
 * span holds `at` (start inclusive, end exclusive); earliest grant first. Read through
 * `executor`, so a caller deciding a write can read them in the write's own transaction.
 */
export async function activeExceptions(
  executor: SqlExecutor,
  query: ExceptionQuery,
): Promise<PolicyException[]> {
  const rows = await executor.query<ExceptionRow>(
    `${COVERING} ORDER BY granted_at, exception_id`,
    coveringParams(query),
  );
  return rows.map(exceptionFromRow);
}

/**
 * Exceptions are data, granted by a person: each grant and revoke is stored with its author and
 * written to the audit trail in the same transaction. A revoked exception keeps its row. Nothing here
 * decides whether an exception applies to a request: the module whose rule it sets aside does, and
 * confirms the use next to its write (`confirmUse`).
 */
export class PolicyExceptions {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
    private readonly audit: AuditSink,
  ) {}

  /** Stores the exception under the granting principal and audits it; the caller validated the request. */
  async grant(principal: Principal, grant: ExceptionGrant): Promise<PolicyException> {
    const now = this.clock.now();
    const exceptionId = `exc_${newOperationId(now).slice('op_'.length)}`;
    return this.db.transaction(async (tx) => {
      await tx.execute(
        `INSERT INTO granted_exceptions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
        [
          exceptionId,
          principal.tenant,
          grant.kind,
          canonicalJson(grant.target),
          grant.starts_at,
          grant.ends_at,
          grant.reason,
          principal.subject,
          now,
        ],
      );
      const exception = (await this.#find(tx, principal.tenant, exceptionId))!;
      await this.#audit(tx, principal, 'exception_grant', exception, null);
      return exception;
    });
  }

  /**
   * One tenant's exceptions, newest grant first; `kinds` keeps those of these kinds, `activeAt` those
   * not revoked nor ended by then.
   */
  async list(
    tenant: string,
    options: { readonly kinds: readonly string[]; readonly activeAt?: number; readonly limit: number },
  ) {
    if (options.kinds.length === 0) return [];
    const where = ['tenant = ?', `kind IN (${options.kinds.map(() => '?').join(', ')})`];
    const params: unknown[] = [tenant, ...options.kinds];
    if (options.activeAt !== undefined) {
      where.push('revoked_at IS NULL', 'ends_at > ?');
      params.push(options.activeAt);
    }
    const rows = await this.db.query<ExceptionRow>(
      `SELECT ${COLUMNS} FROM granted_exceptions WHERE ${where.join(' AND ')}
       ORDER BY exception_id DESC LIMIT ${Math.max(1, Math.floor(options.limit))}`,
      params,
    );
    return rows.map(exceptionFromRow);
  }

  /** The tenant's exception with this id, or null (another tenant's is not found either). */
  find(tenant: string, exceptionId: string): Promise<PolicyException | null> {
    return this.#find(this.db, tenant, exceptionId);
  }

  /** Marks the exception revoked by the principal (kept for the audit) and audits it, once. */
  async revoke(principal: Principal, exceptionId: string): Promise<RevokeAnswer> {
    const now = this.clock.now();
    return this.db.transaction(async (tx): Promise<RevokeAnswer> => {
      const changed = await tx.execute(
        `UPDATE granted_exceptions SET revoked_by = ?, revoked_at = ?
         WHERE tenant = ? AND exception_id = ? AND revoked_at IS NULL`,
        [principal.subject, now, principal.tenant, exceptionId],
      );
      const exception = await this.#find(tx, principal.tenant, exceptionId);
      if (!exception) return { kind: 'not_found' };
      if (changed === 0) return { kind: 'already_revoked', exception };
      await this.#audit(tx, principal, 'exception_revoke', exception, null);
      return { kind: 'revoked', exception };
    });
  }

  /** The exceptions in force for an action (see `activeExceptions`), read through `within` when given. */
  active(query: ExceptionQuery, within?: SqlExecutor): Promise<PolicyException[]> {
    return activeExceptions(within ?? this.db, query);
  }

  /**
   * Re-reads the exception inside the caller's write transaction and, when it still applies (not
   * revoked, holding the action's time, granted by someone other than the requester), audits its use
   * with that transaction and returns it; null otherwise. On PostgreSQL the row is share-locked, so a
   * revoke racing the write either commits first (and this answers null) or waits for the write.
   */
  async confirmUse(within: SqlExecutor, use: ExceptionUse): Promise<PolicyException | null> {
    const { query, principal } = use;
    const lock = within.lockingClause('share');
    const [row] = await within.query<ExceptionRow>(`${COVERING} AND exception_id = ?${lock}`, [
      ...coveringParams(query),
      use.exceptionId,
    ]);
    if (!row || row.granted_by === principal.subject) return null;
    const exception = exceptionFromRow(row);
    await this.#audit(within, principal, 'exception_applied', exception, use);
    return exception;
  }

  /** Runs `work` in one transaction of the exceptions' database (a use outside the tool's own write). */
  transaction<R>(work: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    return this.db.transaction(work);
  }

  /** Deletes every exception (the runtime's clearRecords, for test and evaluation harnesses). */
  async reset(): Promise<void> {
    await this.db.execute('DELETE FROM granted_exceptions');
  }

  async #find(executor: SqlExecutor, tenant: string, exceptionId: string) {
    const [row] = await executor.query<ExceptionRow>(
      `SELECT ${COLUMNS} FROM granted_exceptions WHERE tenant = ? AND exception_id = ?`,
      [tenant, exceptionId],
    );
    return row ? exceptionFromRow(row) : null;
  }

  async #audit(
    tx: SqlExecutor,
    principal: Principal,
    action: string,
    exception: PolicyException,
    use: ExceptionUse | null,
  ): Promise<void> {
    const entry: AuditEntry = {
      at: new Date(this.clock.now()).toISOString(),
      correlationId: randomUUID(),
      tenant: principal.tenant,
      subject: principal.subject,
      actor: principal.actor,
      action,
      status: 'completed',
      code: null,
      operationId: use?.operationId ?? null,
      replayed: false,
      ...(use ? { tool: use.tool } : {}),
      // The target's fields are named flat too, as the record's answers name them (exception-views.ts).
      detail: {
        ...exception.target,
        exception_id: exception.exception_id,
        kind: exception.kind,
        target: exception.target,
        starts_at: exception.starts_at,
        ends_at: exception.ends_at,
        granted_by: exception.granted_by,
        ...(action === 'exception_grant' ? { reason: exception.reason } : {}),
      },
    };
    if (this.audit.recordWithin) await this.audit.recordWithin(entry, tx);
    else await this.audit.record(entry);
  }
}

/** What a module may do with exceptions: read those in force and confirm one's use next to its write. */
export type ModuleExceptions = Pick<PolicyExceptions, 'active' | 'confirmUse'>;
