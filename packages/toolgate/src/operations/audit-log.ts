import type { Logger } from 'pino';
import type { SqlDatabase, SqlExecutor } from '../store/sql-database.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';
import type { AuditEntry, AuditSink } from '../telemetry/audit.ts';
import { AUDIT_REDACTED_PATHS } from '../telemetry/logger.ts';
import { deleteInBatches } from './retention.ts';

/** One stored audit entry as the operator API shows it. */
export interface StoredAuditEntry {
  readonly seq: number;
  readonly at: string;
  readonly tenant: string;
  readonly subject: string;
  readonly actor: string;
  readonly action: string;
  readonly tool: string | null;
  readonly contract_version: string | null;
  readonly operation_id: string | null;
  readonly status: string;
  readonly code: string | null;
  readonly replayed: boolean;
  readonly correlation_id: string;
  readonly trace_id: string | null;
  /** The version of the policy set the entry was written under (`detail.policy_version`), or null. */
  readonly policy_version: string | null;
  readonly detail: Record<string, unknown>;
}

export interface AuditQuery {
  readonly tenant: string;
  readonly operationId?: string;
  readonly subject?: string;
  /** Epoch ms: entries at or after. */
  readonly since?: number;
  /** The last `seq` of the previous page. */
  readonly after?: number;
  readonly limit: number;
}

const COLUMNS = `INSERT INTO audit_log (at, tenant, subject, actor, action, tool, contract_version, operation_id,
  status, code, replayed, correlation_id, trace_id, detail) VALUES `;
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const INSERT = `${COLUMNS}${ROW}`;

/** Most entries one group insert carries (14 parameters each). */
const MOST_PER_INSERT = 64;

interface Waiting {
  readonly params: unknown[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The durable, append-only audit trail in the gateway's database. Writing does not depend on the log
 * level: every entry is inserted (inside the caller's transaction when it passes one) and also
 * mirrored to the log's audit channel. A failed insert is logged, never turned into a failed call.
 */
export class AuditLog implements AuditSink {
  readonly #log: Logger;
  /** PostgreSQL: entries waiting for the insert on its way to finish; they go together in the next. */
  readonly #waiting: Waiting[] = [];
  #inserting = false;

  /** Detail every entry carries (the policy version the process decides by), under the entry's own. */
  readonly #stamp: Readonly<Record<string, unknown>>;

  constructor(
    private readonly db: SqlDatabase,
    logger: Logger,
    stamp: Readonly<Record<string, unknown>> = {},
  ) {
    this.#stamp = stamp;
    this.#log = logger.child(
      { channel: 'audit' },
      { redact: { paths: AUDIT_REDACTED_PATHS, censor: '[redacted]' } },
    );
  }

  /**
   * Stores one entry, and answers once it is committed. On PostgreSQL entries recorded while another
   * insert is on its way go together in the next (group commit), each caller answered only after its
   * own entry is stored; SQLite commits the writes of one event-loop turn together by itself.
   */
  async record(entry: AuditEntry): Promise<void> {
    try {
      if (!this.db.groupsCommits) {
        const params = paramsOf(entry, this.#stamp);
        await new Promise<void>((resolve, reject) => {
          this.#waiting.push({ params, resolve, reject });
          if (this.#inserting) return;
          this.#inserting = true;
          void this.#insertWaiting();
        });
        this.#log.info(entry, 'audit');
      } else {
        await this.append(entry, this.db);
      }
    } catch (error) {
      this.#log.error({ err: error, entry }, 'audit entry could not be stored');
    }
  }

  async #insertWaiting(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0, MOST_PER_INSERT);
        try {
          await this.#insert(group);
          for (const waiting of group) waiting.resolve();
        } catch (error) {
          // One entry the database refuses must not take the others with it; an unavailable
          // database fails them all at once instead of once per entry.
          if (group.length === 1 || isStoreUnavailable(error)) {
            for (const waiting of group) waiting.reject(error);
          } else {
            for (const waiting of group) {
              await this.#insert([waiting]).then(waiting.resolve, waiting.reject);
            }
          }
        }
      }
    } finally {
      this.#inserting = false;
    }
  }

  #insert(group: readonly Waiting[]): Promise<number> {
    const sql = group.length === 1 ? INSERT : `${COLUMNS}${group.map(() => ROW).join(', ')}`;
    return this.db.execute(
      sql,
      group.flatMap((waiting) => waiting.params),
    );
  }

  recordWithin(entry: AuditEntry, tx: SqlExecutor): Promise<void> {
    return this.append(entry, tx);
  }

  /** Inserts one entry through `executor` (a transaction's, to commit with the change it records). */
  async append(entry: AuditEntry, executor: SqlExecutor): Promise<void> {
    await executor.execute(INSERT, paramsOf(entry, this.#stamp));
    this.#log.info(entry, 'audit');
  }

  /** One page of a tenant's entries, oldest first. */
  async list(query: AuditQuery): Promise<StoredAuditEntry[]> {
    const where = ['tenant = ?'];
    const params: unknown[] = [query.tenant];
    if (query.operationId !== undefined) {
      where.push('operation_id = ?');
      params.push(query.operationId);
    }
    if (query.subject !== undefined) {
      where.push('subject = ?');
      params.push(query.subject);
    }
    if (query.since !== undefined) {
      where.push('at >= ?');
      params.push(query.since);
    }
    if (query.after !== undefined) {
      where.push('seq > ?');
      params.push(query.after);
    }
    params.push(query.limit);
    const rows = await this.db.query(
      `SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`,
      params,
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      at: new Date(Number(row.at)).toISOString(),
      tenant: String(row.tenant),
      subject: String(row.subject),
      actor: String(row.actor),
      action: String(row.action),
      tool: (row.tool as string | null) ?? null,
      contract_version: (row.contract_version as string | null) ?? null,
      operation_id: (row.operation_id as string | null) ?? null,
      status: String(row.status),
      code: (row.code as string | null) ?? null,
      replayed: Number(row.replayed) === 1,
      correlation_id: String(row.correlation_id),
      trace_id: (row.trace_id as string | null) ?? null,
      ...withPolicyVersion(JSON.parse(String(row.detail)) as Record<string, unknown>),
    }));
  }

  /** Deletes entries older than `before` (epoch ms) in short statements (deleteInBatches); returns how many. */
  purge(before: number): Promise<number> {
    return deleteInBatches(
      this.db,
      'DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE at < ? ORDER BY at LIMIT ?)',
      [before],
    );
  }
}

function paramsOf(entry: AuditEntry, stamp: Readonly<Record<string, unknown>>): unknown[] {
  return [
    Date.parse(entry.at),
    entry.tenant,
    entry.subject,
    entry.actor,
    entry.action,
    entry.tool ?? null,
    entry.contractVersion ?? null,
    entry.operationId,
    entry.status,
    entry.code,
    entry.replayed ? 1 : 0,
    entry.correlationId,
    entry.traceId ?? null,
    JSON.stringify({ ...stamp, ...entry.detail }),
  ];
}

function withPolicyVersion(detail: Record<string, unknown>) {
  const version = detail.policy_version;
  return { policy_version: typeof version === 'string' ? version : null, detail };
}
