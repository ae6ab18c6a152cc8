import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from '@toolgate/simulation';
import { z } from 'zod';
import { changeIdSchema, changeStateSchema } from './change-schemas.ts';
import { formatAtOffset, offsetMinutesOf } from './rfc3339.ts';
import {
  type ChangeRecord,
  environmentSchema,
  riskSchema,
  type VisibleState,
} from './systems/change-platform/change-record.ts';

/** A change as change_search lists it: what an agent needs to recognise it, no plans. */
export const changeSummarySchema = z.strictObject({
  change_id: changeIdSchema,
  service_id: z.string().describe('Catalog id of the service the change affects.'),
  environment: environmentSchema.describe('Environment the change affects.'),
  summary: z.string().describe('The summary given when the change was created.'),
  state: changeStateSchema,
  effective_risk: riskSchema.describe('Risk the change is handled at, after policy.'),
  approval_required: z.boolean().describe('Whether the change needs approval before its start.'),
  approval_group: z.string().nullable().describe('Group that approves it; null when none is needed.'),
  scheduled_start: z.string().describe("Start time as requested (RFC 3339, the requester's offset)."),
  scheduled_end: z.string().describe('Start plus duration, in the same offset.'),
});

/** A change as change_get returns it: the summary plus plans and provenance. */
export const changeDetailSchema = changeSummarySchema.extend({
  duration_minutes: z.number().int().describe('Planned duration in minutes.'),
  requested_risk: riskSchema.describe('The risk the requester asked for.'),
  implementation_plan: z.string().describe('The ordered implementation steps.'),
  rollback_plan: z.string().describe('The recovery actions and their trigger.'),
  requested_by: z.string().describe('Subject of the caller who created the change.'),
  created_at: z.string().describe('When the platform recorded the change (RFC 3339, UTC).'),
});

export function changeSummary(record: ChangeRecord): z.infer<typeof changeSummarySchema> {
  const offset = offsetMinutesOf(record.start_time);
  return {
    change_id: record.change_id,
    service_id: record.service_id,
    environment: record.environment,
    summary: record.summary,
    state: record.state as VisibleState,
    effective_risk: record.effective_risk,
    approval_required: record.approval_required,
    approval_group: record.approval_group,
    scheduled_start: record.start_time,
    scheduled_end: formatAtOffset(record.start_at + record.duration_minutes * 60_000, offset),
  };
}

export function changeDetail(record: ChangeRecord): z.infer<typeof changeDetailSchema> {
  return {
    ...changeSummary(record),
    duration_minutes: record.duration_minutes,
    requested_risk: record.requested_risk,
    implementation_plan: record.implementation_plan ?? '',
    rollback_plan: record.rollback_plan ?? '',
    requested_by: record.requested_by,
    created_at: new Date(record.created_at).toISOString(),
  };
}

/** A read of the platform that got no usable answer; reads change nothing, so this is a plain failure. */
export function isPlatformReadFailure(error: unknown): boolean {
  return (
    error instanceof ExternalUnavailableError ||
    error instanceof ExternalOutcomeUnknownError ||
    error instanceof ExternalRejectedError
  );
}
