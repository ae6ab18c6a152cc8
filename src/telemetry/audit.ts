import type { Logger } from 'pino';

/** One audit record per write/request call and per operator decision. No argument values. */
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
  readonly detail?: Record<string, unknown>;
}

export interface AuditSink {
  record(entry: AuditEntry): void;
}

/** Audit trail written to the structured log under its own channel. */
export function logAuditSink(logger: Logger): AuditSink {
  const audit = logger.child({ channel: 'audit' });
  return { record: (entry) => audit.info(entry, 'audit') };
}
