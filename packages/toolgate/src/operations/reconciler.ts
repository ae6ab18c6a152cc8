import type { Logger } from 'pino';
import type { ReconcileVerdict } from '../contract/define-tool.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import { answeredStatus, outcomeContractProblems } from '../contract/outcome-contract.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import type { AuditSink } from '../telemetry/audit.ts';
import { GatewayTracing } from '../telemetry/call-tracing.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { Clock } from '../time/clock.ts';
import { abandonedEnvelope, needsReviewEnvelope } from './operation-envelopes.ts';
import { type OperationRecord, snapshotOf, statusOfOutcome } from './operation-record.ts';
import type { OperationStore } from './operation-store.ts';
import { type OperationsTuning, reconcileBackoff } from './operations-tuning.ts';
import type { ReconcileQueue } from './reconcile-queue.ts';

export interface ReconcilerDeps {
  readonly store: OperationStore;
  readonly queue: ReconcileQueue;
  readonly registry: ToolRegistry;
  readonly clock: Clock;
  readonly tuning: OperationsTuning;
  readonly retentionSeconds: number;
  readonly logger: Logger;
  readonly audit: AuditSink;
  readonly metrics?: GatewayMetrics;
  readonly tracing?: GatewayTracing;
}

/** What one pass did, for tests and logs. */
export interface ReconcilePass {
  abandoned: number;
  settled: number;
  deferred: number;
  escalated: number;
}

/**
 * Settles unknown outcomes by asking the owning system (each tool's `reconcile` hook), with
 * exponential back-off; a record still unknown after `reconcileMaxAttempts` (or whose tool escalates)
 * goes to human review. First it turns records whose lease ran out into unknown outcomes.
 */
export class Reconciler {
  readonly #log: Logger;

  constructor(private readonly deps: ReconcilerDeps) {
    this.#log = deps.logger.child({ channel: 'reconciler' });
  }

  async runOnce(): Promise<ReconcilePass> {
    const { queue, clock, tuning, registry, store, retentionSeconds } = this.deps;
    const pass: ReconcilePass = { abandoned: 0, settled: 0, deferred: 0, escalated: 0 };
    const now = clock.now();
    for (const record of await queue.expiredLeases(now, tuning.reconcileBatch)) {
      const envelope = abandonedEnvelope(record, registry.catalog());
      if (await store.abandon(record.id, envelope, now, now + retentionSeconds * 1000)) {
        pass.abandoned += 1;
        this.deps.metrics?.abandoned.inc({ tool: record.tool });
        await this.#audit(record, 'outcome_unknown', envelope.code, 'lease expired', 0);
      }
    }
    const claimed = await queue.claimDue(clock.now(), tuning.reconcileBatch, clock.now() + tuning.claimMs);
    const tracing = this.deps.tracing ?? GatewayTracing.off;
    for (const record of claimed) {
      const result = await tracing.reconcileAttempt(
        {
          'toolgate.tool': record.tool,
          'toolgate.contract_version': record.contractVersion,
          'toolgate.operation_id': record.id,
          'toolgate.tenant': record.tenant,
          'toolgate.reconcile.attempt': record.reconcileAttempts + 1,
        },
        async () => {
          const value = await this.#reconcile(record);
          return { value, attributes: { 'toolgate.reconcile.result': value } };
        },
      );
      pass[result] += 1;
      this.deps.metrics?.reconciliations.inc({ tool: record.tool, result });
    }
    this.deps.metrics?.reconcilerPassed();
    return pass;
  }

  async #reconcile(record: OperationRecord): Promise<'settled' | 'deferred' | 'escalated'> {
    const { queue, clock, tuning, registry, retentionSeconds } = this.deps;
    const tool = registry.get(record.tool, record.contractVersion);
    const verdict = tool
      ? await this.#ask(tool, record)
      : { settled: false as const, note: 'tool not served' };
    const now = clock.now();
    if (tool && verdict.settled && verdict.outcome.status !== 'outcome_unknown') {
      const { problems, result } = outcomeContractProblems(tool, verdict.outcome, 'execute');
      if (problems.length === 0) {
        const { outcome } = verdict;
        const envelope = buildEnvelope(tool, {
          ...outcome,
          status: answeredStatus(tool, outcome),
          result,
          operation_id: record.id,
        });
        const status = statusOfOutcome(envelope.status);
        if (await queue.settle(record.id, status, envelope, now, now + retentionSeconds * 1000)) {
          await this.#audit(record, status, envelope.code, 'settled', 1);
        }
        return 'settled';
      }
      this.#log.error({ op: record.id, tool: record.tool, problems }, 'reconcile answer breaks the contract');
    }
    const note = verdict.settled ? (verdict.outcome.message ?? 'still unknown') : verdict.note;
    const attempts = record.reconcileAttempts + 1;
    const escalate = !verdict.settled && verdict.escalate === true;
    if (escalate || attempts >= tuning.reconcileMaxAttempts || !tool) {
      const envelope = needsReviewEnvelope(record, registry.catalog());
      if (await queue.toReview(record.id, note, envelope, now)) {
        await this.#audit(record, 'needs_review', null, note, 1);
      }
      this.#log.warn({ op: record.id, tool: record.tool, attempts, note }, 'operation needs review');
      return 'escalated';
    }
    await queue.defer(record.id, note, now, now + reconcileBackoff(tuning, attempts));
    await this.#audit(record, 'outcome_unknown', null, note, 1);
    return 'deferred';
  }

  /** Runs the hook under a time limit; a hook that throws or hangs leaves the outcome unknown. */
  async #ask(tool: RegisteredTool, record: OperationRecord): Promise<ReconcileVerdict<unknown>> {
    const hook = tool.definition.reconcile;
    if (!hook) return { settled: false, note: 'tool has no reconcile hook' };
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<ReconcileVerdict<unknown>>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error('reconcile timed out'));
        resolve({ settled: false, note: `no answer within ${this.deps.tuning.reconcileTimeoutMs} ms` });
      }, this.deps.tuning.reconcileTimeoutMs);
    });
    const log = this.#log.child({ op: record.id, tool: record.tool });
    const asked = hook(snapshotOf(record), { signal: controller.signal, log }).catch(
      (error: unknown): ReconcileVerdict<unknown> => {
        log.warn({ err: error }, 'reconcile hook failed');
        return { settled: false, note: 'the owning system could not be asked' };
      },
    );
    try {
      return await Promise.race([asked, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One audit entry per reconciliation step: what was found, never what the owning system answered in full. */
  async #audit(
    record: OperationRecord,
    status: string,
    code: string | null,
    finding: string,
    attempt: number,
  ): Promise<void> {
    await this.deps.audit.record({
      at: new Date(this.deps.clock.now()).toISOString(),
      correlationId: record.correlationId,
      tenant: record.tenant,
      subject: 'toolgate-reconciler',
      actor: 'service',
      action: 'operations_reconcile',
      status,
      code,
      operationId: record.id,
      replayed: false,
      tool: record.tool,
      contractVersion: record.contractVersion,
      detail: { owner: record.subject, reconcile_attempts: record.reconcileAttempts + attempt, finding },
    });
  }
}
