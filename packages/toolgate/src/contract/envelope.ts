import { z } from 'zod';
import { ERROR_CATEGORIES } from './error-catalog.ts';

export const OUTCOME_STATUSES = [
  'completed',
  'validated',
  'submitted',
  'requires_confirmation',
  'rejected',
  'outcome_unknown',
  'in_progress',
  'failed',
] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** Statuses for which `ok` is true. */
export const OK_STATUSES: ReadonlySet<OutcomeStatus> = new Set(['completed', 'validated', 'submitted']);

export const fieldErrorSchema = z.strictObject({
  field: z.string(),
  code: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const warningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
});
export type Warning = z.infer<typeof warningSchema>;

/**
 * The outcome envelope (DESIGN.md section 3): every field present on every call, `result` typed by the
 * tool's own output schema. Every tool's output schema repeats it, so only the fields an agent acts on
 * carry a description; the server's `instructions` (sent once, at initialize) explain the rest.
 */
export function envelopeSchemaFor<R extends z.ZodType>(result: R) {
  return z.strictObject({
    ok: z.boolean(),
    tool: z.string(),
    contract_version: z.string(),
    status: z
      .enum(OUTCOME_STATUSES)
      .describe(
        'completed: done; validated: dry run, nothing changed; submitted: requested, a third party decides, ' +
          'not done; requires_confirmation: ask the user; rejected, failed: nothing changed; ' +
          'outcome_unknown: maybe changed, poll operations_get; in_progress: poll operations_get.',
      ),
    operation_id: z.string().nullable().describe('Pass to operations_get; null when nothing was recorded.'),
    replayed: z.boolean(),
    code: z.string().nullable(),
    category: z.enum(ERROR_CATEGORIES).nullable(),
    message: z.string().describe('One sentence to relay to the user.'),
    retryable: z.boolean().describe('True only if the identical request (same key) may succeed later.'),
    resolution: z.string().nullable().describe('The next step.'),
    field_errors: z.array(fieldErrorSchema),
    result: result.nullable(),
    warnings: z.array(warningSchema).describe('Notes to relay even on success.'),
  });
}

export const anyEnvelopeSchema = envelopeSchemaFor(z.record(z.string(), z.unknown()));
export type OutcomeEnvelope<R = Record<string, unknown>> = Omit<
  z.infer<typeof anyEnvelopeSchema>,
  'result'
> & {
  result: R | null;
};
