import type { Clock, ModuleExceptions, Principal, SqlDatabase, ToolOutcome } from 'toolgate';
import { canonicalJson, sha256Hex } from 'toolgate';
import type { PreparedChange } from './change-creation.ts';

/** How far back an identical request counts as a possible duplicate (the contract publishes it). */
export const DUPLICATE_WINDOW_SECONDS = 24 * 60 * 60;

/** A claim's life: creating until the change is known to exist (created); removed if nothing was made. */
type ClaimState = 'creating' | 'created';

export type CreationClaim =
  | { readonly kind: 'claimed' }
  /** An identical request of the same principal has not finished: its change may exist or appear. */
  | { readonly kind: 'in_progress'; readonly operationId: string }
  /** An identical request of the same principal created its change within the window. */
  | { readonly kind: 'duplicate'; readonly operationId: string; readonly ageSeconds: number }
  /** The exception the review relied on was revoked (or no longer holds) when the write was decided. */
  | { readonly kind: 'exception_withdrawn'; readonly exceptionId: string };

/** An identical request of the same principal that created its change within the window. */
export interface EarlierCreation {
  readonly operationId: string;
  readonly createdAt: number;
}

/**
 * What makes two change requests "identical": the service, environment, summary, both plans, the
 * start instant (however its offset was written), duration and requested risk. Keys, dry_run and the
 * confirmation flag are not part of it.
 */
export function changeContentHash(prepared: PreparedChange): string {
  const { draft } = prepared;
  return sha256Hex(
    canonicalJson({
      service_id: draft.service_id,
      environment: draft.environment,
      summary: draft.summary,
      implementation_plan: prepared.implementation_plan,
      rollback_plan: prepared.rollback_plan,
      start_at: draft.start_at,
      duration_minutes: draft.duration_minutes,
      risk: draft.requested_risk,
    }),
  );
}

/**
 * Duplicate suspicion for change_create, decided atomically. The gateway's own check (an earlier
 * operation with the same content) is advisory: requests racing under different keys all pass it.
 * This decision reads the earlier claims and writes this operation's claim in one transaction that,
 * on PostgreSQL, first locks the service's catalog row, so identical requests are decided one after
 * the other (SQLite serializes transactions already). An identical request still creating blocks a
 * new one even when the caller confirmed it; one that created its change blocks it unless confirmed.
 * A change that starts outside its window under an exception has the exception re-read in the same
 * transaction: a revoke that committed first refuses the change, and its use is audited with the claim.
 */
export class CreationClaims {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
    private readonly exceptions: ModuleExceptions,
  ) {}

  async claim(
    principal: Principal,
    operationId: string,
    prepared: PreparedChange,
    confirmed: boolean,
    acceptedDuplicate: string | null = null,
  ): Promise<CreationClaim> {
    const now = this.clock.now();
    const { service_id: serviceId, tenant } = prepared.draft;
    const contentHash = changeContentHash(prepared);
    return this.db.transaction(async (tx): Promise<CreationClaim> => {
      await tx.lockRows('SELECT service_id FROM changes_services WHERE tenant = ? AND service_id = ?', [
        tenant,
        serviceId,
      ]);
      const [own] = await tx.query('SELECT state FROM changes_create_claims WHERE operation_id = ?', [
        operationId,
      ]);
      if (own) return { kind: 'claimed' };
      const sameContent = [tenant, principal.subject, contentHash, now - DUPLICATE_WINDOW_SECONDS * 1000];
      // Claims older than the window decide nothing any more; dropping them keeps the table small.
      await tx.execute(
        'DELETE FROM changes_create_claims WHERE tenant = ? AND subject = ? AND content_hash = ? AND created_at < ?',
        sameContent,
      );
      // CAST keeps SQLite (STAT4) from re-preparing this ordered statement on every call.
      const [earlier] = await tx.query<{ operation_id: string; state: ClaimState; created_at: number }>(
        `SELECT operation_id, state, created_at FROM changes_create_claims
         WHERE tenant = CAST(? AS TEXT) AND subject = CAST(? AS TEXT) AND content_hash = CAST(? AS TEXT)
         ORDER BY CASE WHEN state = 'creating' THEN 0 ELSE 1 END, created_at DESC LIMIT 1`,
        sameContent.slice(0, 3),
      );
      if (earlier?.state === 'creating') return { kind: 'in_progress', operationId: earlier.operation_id };
      // The user agreed to a new change beside this very one (it was named to them); any other blocks.
      if (earlier && !confirmed && earlier.operation_id !== acceptedDuplicate) {
        const ageSeconds = Math.max(0, Math.round((now - Number(earlier.created_at)) / 1000));
        return { kind: 'duplicate', operationId: earlier.operation_id, ageSeconds };
      }
      const excepted = prepared.exception;
      if (excepted) {
        const applies = await this.exceptions.confirmUse(tx, {
          exceptionId: excepted.exception_id,
          query: {
            tenant,
            kind: 'maintenance_window',
            target: { environment: prepared.draft.environment, service_id: serviceId },
            at: prepared.draft.start_at,
          },
          operationId,
          principal,
          tool: 'change_create',
        });
        if (!applies) return { kind: 'exception_withdrawn', exceptionId: excepted.exception_id };
      }
      await tx.execute(
        `INSERT INTO changes_create_claims (operation_id, tenant, subject, service_id, content_hash, state, created_at)
         VALUES (?, ?, ?, ?, ?, 'creating', ?)`,
        [operationId, tenant, principal.subject, serviceId, contentHash, now],
      );
      return { kind: 'claimed' };
    });
  }

  /**
   * The latest identical request of this principal that created its change within the window (what a
   * new one would duplicate), read without deciding anything: the claim decides, in its transaction.
   */
  async latestCreated(principal: Principal, prepared: PreparedChange): Promise<EarlierCreation | null> {
    const since = this.clock.now() - DUPLICATE_WINDOW_SECONDS * 1000;
    const [row] = await this.db.query<{ operation_id: string; created_at: number | string }>(
      `SELECT operation_id, created_at FROM changes_create_claims
       WHERE tenant = CAST(? AS TEXT) AND subject = CAST(? AS TEXT) AND content_hash = CAST(? AS TEXT)
       AND state = 'created' AND created_at >= ? ORDER BY created_at DESC LIMIT 1`,
      [prepared.draft.tenant, principal.subject, changeContentHash(prepared), since],
    );
    return row ? { operationId: row.operation_id, createdAt: Number(row.created_at) } : null;
  }

  /**
   * Follows the outcome the operation settled to: completed means the change exists; rejected or
   * failed means nothing was created, so the claim goes; anything else (unknown) keeps it creating.
   */
  async follow(operationId: string, status: ToolOutcome<unknown>['status']): Promise<void> {
    if (status === 'completed') {
      await this.db.execute("UPDATE changes_create_claims SET state = 'created' WHERE operation_id = ?", [
        operationId,
      ]);
    } else if (status === 'rejected' || status === 'failed') {
      await this.db.execute('DELETE FROM changes_create_claims WHERE operation_id = ?', [operationId]);
    }
  }

  async clear(): Promise<void> {
    await this.db.execute('DELETE FROM changes_create_claims');
  }
}
