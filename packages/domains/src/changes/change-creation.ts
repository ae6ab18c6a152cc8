import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from '@toolgate/simulation';
import { warningSchema } from 'toolgate';
import { z } from 'zod';
import type { ChangePlatform } from './systems/change-platform/change-platform.ts';
import {
  type ChangeRecord,
  changeDraftSchema,
  changeRecordSchema,
} from './systems/change-platform/change-record.ts';

/** Name of the recovery point saved before the first platform call. */
export const PREPARED = 'prepared';

/**
 * Everything needed to finish the change without the original arguments: the reviewed draft, the
 * plans (already scanned for credentials), the warnings the review produced and the exception it
 * relied on. Saved as the
 * operation's first recovery point, so a later delivery or the reconciler can complete the steps.
 */
export const preparedChangeSchema = z.strictObject({
  draft: changeDraftSchema,
  implementation_plan: z.string(),
  rollback_plan: z.string(),
  warnings: z.array(warningSchema),
  /** The exception the review relied on for a start outside every window (absent: none). */
  exception: z.strictObject({ exception_id: z.string(), granted_by: z.string() }).nullable().optional(),
});
export type PreparedChange = z.infer<typeof preparedChangeSchema>;

/** The recovery points an operation carries, and how to add one. */
export interface RecoveryPoints {
  /** What earlier deliveries saved, as it was when this delivery began. */
  readonly done: Readonly<Record<string, unknown>>;
  save(name: string, data: unknown): Promise<void>;
  /** Tells the operation record which platform id the change has (support and reconciliation). */
  noteChangeId(changeId: string): Promise<void>;
}

export type CreationOutcome =
  | { readonly kind: 'complete'; readonly record: ChangeRecord; readonly stepsApplied: number }
  /** The platform did not take a call; `started` when an earlier step may already exist. */
  | { readonly kind: 'unavailable'; readonly started: boolean }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'rejected'; readonly message: string }
  /** Every step was applied, but the platform's answer breaks its contract: the state is not known. */
  | { readonly kind: 'malformed'; readonly problems: readonly ContractProblem[] };

/** One way a platform answer breaks the record's contract. */
export interface ContractProblem {
  readonly field: string;
  readonly message: string;
}

/** The prepared change stored in an operation's recovery points, if the operation got that far. */
export function preparedFrom(checkpoints: Readonly<Record<string, unknown>>): PreparedChange | null {
  const parsed = preparedChangeSchema.safeParse(checkpoints[PREPARED]);
  return parsed.success ? parsed.data : null;
}

/**
 * Runs the platform steps still missing, in order, saving a recovery point after each. A step
 * recorded as done is skipped; a step applied but not yet recorded (the process died in between)
 * is sent again and the platform answers what it did the first time, so there is never a second
 * record. The change becomes visible only with the last step. What is reported is the platform's
 * own answer (the last step's, or its status for the operation), checked against the record's
 * contract, never a copy read from elsewhere.
 */
export async function completeChange(
  platform: ChangePlatform,
  operationId: string,
  prepared: PreparedChange,
  points: RecoveryPoints,
  signal: AbortSignal,
): Promise<CreationOutcome> {
  const created = z.object({ change_id: z.string() }).safeParse(points.done.create_record);
  let changeId = created.success ? created.data.change_id : null;
  let stepsApplied = 0;
  const step = async (name: string, run: () => Promise<void>) => {
    if (name in points.done) return;
    if (signal.aborted) throw new ExternalOutcomeUnknownError('change_platform', 'aborted');
    await run();
    stepsApplied += 1;
  };
  try {
    await step('create_record', async () => {
      changeId = await platform.createRecord(operationId, prepared.draft, signal);
      await points.save('create_record', { change_id: changeId });
      await points.noteChangeId(changeId);
    });
    const id = changeId!;
    await step('attach_implementation_plan', async () => {
      await platform.attachImplementationPlan(operationId, id, prepared.implementation_plan, signal);
      await points.save('attach_implementation_plan', {});
    });
    await step('attach_rollback_plan', async () => {
      await platform.attachRollbackPlan(operationId, id, prepared.rollback_plan, signal);
      await points.save('attach_rollback_plan', {});
    });
    let answer: unknown = null;
    await step('submit', async () => {
      answer = await platform.submit(operationId, id, signal);
      await points.save('submit', {});
    });
    // An earlier delivery did the last step: ask the platform what it now holds for this operation.
    if (answer === null) answer = (await platform.operationStatus(operationId, signal))?.record ?? null;
    const record = changeRecordSchema.safeParse(answer);
    if (!record.success) return { kind: 'malformed', problems: contractProblems(record.error) };
    return { kind: 'complete', record: record.data, stepsApplied };
  } catch (error) {
    if (error instanceof ExternalUnavailableError) {
      return { kind: 'unavailable', started: changeId !== null || earlierDeliveryPrepared(points) };
    }
    if (error instanceof ExternalOutcomeUnknownError) return { kind: 'unknown' };
    if (error instanceof ExternalRejectedError) {
      await platform.abandon(operationId);
      return { kind: 'rejected', message: error.message };
    }
    throw error;
  }
}

/** What is wrong with a platform answer, field by field, for the agent, the log and the reconciler. */
export function contractProblems(error: z.ZodError): ContractProblem[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.') || '(answer)', message: issue.message }));
}

/**
 * Whether an earlier delivery reached the platform: it saved the prepared change before its first
 * call, and may have died after the platform applied that call but before recording it.
 */
function earlierDeliveryPrepared(points: RecoveryPoints): boolean {
  return preparedFrom(points.done) !== null;
}
