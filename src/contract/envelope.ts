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
  code: z.string().describe('Stable warning code.'),
  message: z.string().describe('What to tell the user.'),
});
export type Warning = z.infer<typeof warningSchema>;

/**
 * The outcome envelope (DESIGN.md section 3): every field present on every call,
 * `result` typed by the tool's own output schema. Its descriptions are terse on purpose: every
 * tool's output schema repeats them, so each word is paid for once per tool in tools/list.
 */
export function envelopeSchemaFor<R extends z.ZodType>(result: R) {
  return z.strictObject({
    ok: z.boolean().describe('True iff status is completed, validated or submitted.'),
    tool: z.string().describe('The tool that answered.'),
    contract_version: z.string().describe('Version of the tool contract that answered.'),
    status: z
      .enum(OUTCOME_STATUSES)
      .describe(
        'completed: done; validated: dry run, nothing changed; submitted: requested, a third party decides, ' +
          'not done; requires_confirmation: ask the user; rejected, failed: nothing changed; ' +
          'outcome_unknown: maybe changed, poll operations_get; in_progress: poll operations_get.',
      ),
    operation_id: z
      .string()
      .nullable()
      .describe('For operations_get; null when no operation was recorded (reads, early refusals).'),
    replayed: z.boolean().describe('True when this is the stored outcome of an earlier delivery.'),
    code: z.string().nullable().describe('Stable code of a refusal or failure; null on success.'),
    category: z.enum(ERROR_CATEGORIES).nullable().describe('Family of the code; null on success.'),
    message: z.string().describe('One sentence to relay to the user.'),
    retryable: z.boolean().describe('True only if the identical request (same key) may succeed later.'),
    resolution: z.string().nullable().describe('The next step: which field to change, which tool to use.'),
    field_errors: z.array(fieldErrorSchema).describe('Arguments to fix; empty otherwise.'),
    result: result.nullable().describe("The tool's own typed result, or null."),
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
