import { z } from 'zod';
import { riskSchema, VISIBLE_STATES } from './systems/change-platform/change-record.ts';

export const serviceIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{2,62}$/)
  .describe(
    'Stable service catalog identifier, such as payments-api. When the user names a service in words, get the id from cmdb_service_resolve; never invent one.',
  );

export const changeIdSchema = z
  .string()
  .regex(/^CHG-[0-9]{5,9}$/)
  .describe('Change record id as returned by change_create or change_search, such as CHG-10428.');

export const changeStateSchema = z
  .enum(VISIBLE_STATES)
  .describe(
    'pending_approval: created, waiting for the approval group; scheduled: approved (or needing no approval) and booked for its start; declined: the approval group refused it.',
  );

/** The result of change_create, field for field as in seed 003. */
export const changeCreateResultSchema = z.strictObject({
  change_id: z
    .string()
    .nullable()
    .describe('Id of the change record (CHG-...); null for a dry run, which creates nothing.'),
  state: z
    .enum(['validated', ...VISIBLE_STATES])
    .describe(
      'validated: dry run passed, nothing created; pending_approval: created, waiting for approval; scheduled: created and booked; declined: created and refused by the approvers.',
    ),
  created: z.boolean().describe('True when a change record exists for this request; false for a dry run.'),
  replayed: z
    .boolean()
    .describe(
      'True when this is the result of an earlier delivery of the same idempotency_key returned again (a retry); the change was not made a second time.',
    ),
  effective_risk: riskSchema.describe(
    'The risk the change is handled at: the requested risk or higher if policy raised it.',
  ),
  approval_required: z.boolean().describe('Whether the change needs approval before its scheduled start.'),
  approval_group: z
    .string()
    .nullable()
    .describe('The group that must approve; null when no approval is needed.'),
  scheduled_start: z.string().describe('The requested start time, as sent.'),
  maintenance_exception: z
    .strictObject({
      exception_id: z.string().describe('The exception (exc_...) an approver granted for this start.'),
      granted_by: z.string().describe('Who granted it; never the requester of the change.'),
    })
    .nullable()
    .describe(
      'Set when a production start outside every approved window goes ahead under a maintenance_window exception; null otherwise.',
    ),
});
export type ChangeCreateResult = z.infer<typeof changeCreateResultSchema>;
