import { z } from 'zod';

/** Target name of the simulated change platform for faults, simulate and the effects ledger. */
export const CHANGE_PLATFORM = 'change_platform';

export const ENVIRONMENTS = ['development', 'test', 'staging', 'production'] as const;
export const environmentSchema = z.enum(ENVIRONMENTS);
export type Environment = z.infer<typeof environmentSchema>;

export const RISKS = ['low', 'medium', 'high'] as const;
export const riskSchema = z.enum(RISKS);
export type Risk = z.infer<typeof riskSchema>;

/**
 * Lifecycle of a change record on the platform. `draft` (record started, plans not yet attached or
 * approval not yet requested) and `abandoned` (the platform refused a later step) are never shown
 * to callers: a change becomes visible only once every creation step is done.
 */
export const RECORD_STATES = ['draft', 'pending_approval', 'scheduled', 'declined', 'abandoned'] as const;
export type RecordState = (typeof RECORD_STATES)[number];
export const VISIBLE_STATES = ['pending_approval', 'scheduled', 'declined'] as const;
export const visibleStateSchema = z.enum(VISIBLE_STATES);
export type VisibleState = z.infer<typeof visibleStateSchema>;

/** The creation steps, in order; the last one is request_approval or schedule, never both. */
export const CREATION_STEPS = [
  'create_record',
  'attach_implementation_plan',
  'attach_rollback_plan',
  'request_approval',
  'schedule',
] as const;
export type CreationStep = (typeof CREATION_STEPS)[number];

/** What the first step sends: everything the record holds except the plans. */
export const changeDraftSchema = z.strictObject({
  tenant: z.string(),
  requested_by: z.string(),
  service_id: z.string(),
  environment: environmentSchema,
  summary: z.string(),
  start_time: z.string(),
  start_at: z.number().int(),
  duration_minutes: z.number().int(),
  requested_risk: riskSchema,
  effective_risk: riskSchema,
  approval_required: z.boolean(),
  approval_group: z.string().nullable(),
});
export type ChangeDraft = z.infer<typeof changeDraftSchema>;

/**
 * One change record as the platform keeps it and answers it. A client checks an answer against this
 * schema: a platform that stops sending a member (an output regression) is then seen, not trusted.
 */
export const changeRecordSchema = changeDraftSchema.extend({
  change_id: z.string(),
  operation_id: z.string().nullable(),
  state: z.enum(RECORD_STATES),
  implementation_plan: z.string().nullable(),
  rollback_plan: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ChangeRecord = z.infer<typeof changeRecordSchema>;

/** What the platform answers when asked about an operation id. */
export interface OperationStatus {
  readonly record: ChangeRecord;
  readonly stepsDone: readonly CreationStep[];
}
