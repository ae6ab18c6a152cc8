import type { SqlExecutor } from '../store/sql-database.ts';

/** One audit record per write/request call, operator decision and reconciliation step. No argument values. */
export interface AuditEntry {
  readonly at: string;
  readonly correlationId: string;
  readonly tenant: string;
  readonly subject: string;
  readonly actor: string;
  readonly action: string;
  readonly status: string;
  readonly code: string | null;
  readonly operationId: string | null;
  readonly replayed: boolean;
  /** The tool the entry is about (the called tool, or the tool of the reviewed/reconciled operation). */
  readonly tool?: string;
  readonly contractVersion?: string;
  /** W3C trace id of the span the entry was written under, when tracing is on. */
  readonly traceId?: string | null;
  readonly detail?: Record<string, unknown>;
}

/** Where audit entries go. A durable sink answers once the entry is stored. */
export interface AuditSink {
  record(entry: AuditEntry): void | Promise<void>;
  /** Writes the entry through a transaction of the same database, to commit with the change it records. */
  recordWithin?(entry: AuditEntry, tx: SqlExecutor): Promise<void>;
}
