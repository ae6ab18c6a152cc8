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
  field: z.string().describe('Dotted path of the offending argument, or the argument name.'),
  code: z.string().describe('Stable code of the problem with this field.'),
  message: z.string().describe('What is wrong and what is allowed.'),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const warningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
});
export type Warning = z.infer<typeof warningSchema>;

/**
 * The outcome envelope (DESIGN.md section 3): every field present on every call,
 * `result` typed by the tool's own output schema.
 */
export function envelopeSchemaFor<R extends z.ZodType>(result: R) {
  return z.strictObject({
    ok: z.boolean().describe('True iff status is completed, validated or submitted.'),
    tool: z.string(),
    contract_version: z.string(),
    status: z.enum(OUTCOME_STATUSES),
    operation_id: z.string().nullable(),
    replayed: z.boolean().describe('True when this is the stored outcome of an earlier delivery.'),
    code: z.string().nullable(),
    category: z.enum(ERROR_CATEGORIES).nullable(),
    message: z.string(),
    retryable: z.boolean().describe('True only if the identical request (same key) may succeed later.'),
    resolution: z.string().nullable().describe('The next step: which field to change, which tool to use.'),
    field_errors: z.array(fieldErrorSchema),
    result: result.nullable(),
    warnings: z.array(warningSchema),
  });
}

export const anyEnvelopeSchema = envelopeSchemaFor(z.record(z.string(), z.unknown()));
export type OutcomeEnvelope<R = Record<string, unknown>> = Omit<
  z.infer<typeof anyEnvelopeSchema>,
  'result'
> & {
  result: R | null;
};
