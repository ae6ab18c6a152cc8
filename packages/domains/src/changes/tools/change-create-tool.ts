import { defineTool, idempotencyKeySchema, outcome, textSchema } from 'toolgate';
import { z } from 'zod';
import {
  acceptedDuplicate,
  askToCreate,
  CONFIRM_WHEN,
  confirmationRefusal,
  preparedChange,
} from '../change-confirmation.ts';
import { type CreationClaims, DUPLICATE_WINDOW_SECONDS } from '../change-create-claims.ts';
import { claimRefusal, creationOutcome, validatedResult } from '../change-create-outcomes.ts';
import { completeChange, PREPARED, type PreparedChange, preparedFrom } from '../change-creation.ts';
import { changeErrors } from '../change-errors.ts';
import { reconcileChangeCreation } from '../change-reconciliation.ts';
import { changeCreateResultSchema, serviceIdSchema } from '../change-schemas.ts';
import type { ChangeService } from '../change-service.ts';
import { creationDependencyResult, reviewAnnotations } from '../change-telemetry.ts';
import { CHANGE_PLATFORM, environmentSchema, riskSchema } from '../systems/change-platform/change-record.ts';
import { changeCreateExamples } from './change-create-examples.ts';

export const changeCreateInput = z.strictObject({
  service_id: serviceIdSchema,
  environment: environmentSchema.describe(
    'Target environment affected by the change. production needs the scope changes:create:production and a start inside an approved maintenance window.',
  ),
  summary: textSchema({ min: 12, max: 160 }).describe(
    'Concise description of the intended change and its target, 12-160 characters.',
  ),
  implementation_plan: textSchema({ min: 30, max: 4000, multiline: true }).describe(
    'Ordered implementation steps, 30-4000 characters. Never include credentials: name the vault entry that holds a secret instead.',
  ),
  rollback_plan: textSchema({ min: 30, max: 4000, multiline: true }).describe(
    'The specific recovery actions and the condition that triggers a rollback, 30-4000 characters.',
  ),
  start_time: z.iso
    .datetime({ offset: true })
    .describe(
      'Requested implementation start, RFC 3339 with an explicit UTC offset (2099-08-15T02:00:00-05:00 or 2099-08-15T07:00:00Z). Must be in the future. A production change must start and end inside an approved maintenance window of the service.',
    ),
  duration_minutes: z
    .number()
    .int()
    .min(15)
    .max(480)
    .describe('Expected implementation duration in whole minutes, 15-480.'),
  risk: riskSchema.describe(
    'Requested risk classification. Server policy may raise it (never lower it); the result reports effective_risk.',
  ),
  idempotency_key: idempotencyKeySchema,
  dry_run: z
    .boolean()
    .default(true)
    .describe(
      'true (the default): validate and calculate the policy result without creating anything or reserving the key. false: create the change; only after the user confirmed the validated request, with the same idempotency_key.',
    ),
  confirm_new_change: z
    .boolean()
    .optional()
    .describe(
      'Set true only when the user confirmed that this is a new, separate change although an identical request was made in the last 24 hours (the answer POSSIBLE_DUPLICATE names it). Omit otherwise.',
    ),
});

/** change_create: the governed create of seed 003, dry run by default. */
export function changeCreateTool(service: ChangeService, claims: CreationClaims) {
  const { platform } = service;
  return defineTool({
    name: 'change_create',
    title: 'Create a governed change request',
    description: [
      'Creates one governed change request for a known service in the change-management platform and returns its id and workflow state.',
      'Use it when the user has supplied or approved the service, environment, start time, duration, summary, implementation plan and rollback plan of a planned change.',
      'Do not use it for emergency changes, incident remediation or to run anything on infrastructure: it only records and schedules a change for review. To look up existing changes use change_search or change_get.',
      'Prerequisites: a service_id returned by cmdb_service_resolve (never guessed); for production, the scope changes:create:production and a start inside an approved maintenance window, or covered by a maintenance_window exception an approver other than the requester granted (no request field can set the window aside); no change freeze over the requested time.',
      'Call it first with dry_run true (the default): it validates, computes the effective risk and the approval needed, creates nothing and does not reserve the key. After the user confirms, call again with the same arguments, the same idempotency_key and dry_run false.',
      'The result holds change_id (null for a dry run), state (validated, pending_approval or scheduled), created, replayed, effective_risk, approval_required, approval_group, scheduled_start and maintenance_exception (the exception and who granted it, when the start is outside every window); warnings say when approval is needed, the risk was raised or an exception applies.',
      'An execution (dry_run false) in production is put to the user to confirm in their client first, showing the service, the window, the effective risk and the approval group; only the change they confirmed is created. A client that cannot ask its user (MCP before 2026-07-28, or without elicitation) gets failed / CONFIRMATION_UNAVAILABLE and nothing is created; other environments are not asked.',
      'If the outcome is unknown, retry with the same idempotency_key, never a new one: the creation resumes where it stopped and never makes a second change.',
      'An identical request under a new key within 24 hours answers requires_confirmation / POSSIBLE_DUPLICATE naming the earlier operation, unless confirm_new_change is true (in production, on a client that asks its user, the user is asked instead and the flag is not needed); while that earlier operation has not finished (its outcome is unknown) the answer is CHANGE_CREATION_IN_PROGRESS whatever confirm_new_change says: poll operations_get with it first.',
    ].join(' '),
    kind: 'write',
    mutation: 'create',
    externalSystems: [CHANGE_PLATFORM],
    version: '2.3.1',
    input: changeCreateInput,
    output: changeCreateResultSchema,
    // The result reports `replayed` itself (seed 003's shape): a retry answered from the record says so.
    markReplay: (result) => ({ ...result, replayed: true }),
    errors: [
      changeErrors.UNKNOWN_SERVICE,
      changeErrors.SERVICE_RETIRED,
      changeErrors.START_TIME_IN_PAST,
      changeErrors.CREDENTIALS_IN_PLAN,
      changeErrors.CHANGE_FREEZE_ACTIVE,
      changeErrors.MAINTENANCE_WINDOW_REQUIRED,
      changeErrors.CHANGE_PLATFORM_REJECTED,
      changeErrors.CHANGE_NOT_CREATED,
      changeErrors.CHANGE_CREATION_IN_PROGRESS,
    ],
    scopes: ['changes:create'],
    timeoutMs: 20_000,
    examples: changeCreateExamples,
    sensitiveFields: ['implementation_plan', 'rollback_plan'],
    telemetry: { environment: 'environment' },
    // A balancer or WAF sees which service and environment a change is for without reading the body.
    headers: { service_id: 'Service-Id', environment: 'Environment' },
    supportsDryRun: true,
    // Production changes need the user's own yes: a client that cannot ask its user is refused.
    confirm: {
      when: CONFIRM_WHEN,
      fallback: 'refuse',
      ask: (input, ctx) => askToCreate(service, claims, input, ctx.principal),
    },
    duplicateSuspicion: { windowSeconds: DUPLICATE_WINDOW_SECONDS, confirmField: 'confirm_new_change' },
    notes: [
      'Production changes additionally need the scope changes:create:production; without it the answer is FORBIDDEN.',
      'Warnings: APPROVAL_REQUIRED (approval by approval_group is needed before the start), RISK_RAISED (policy raised the requested risk), MAINTENANCE_WINDOW_EXCEPTION (the start is outside every approved window and the named exception allows it).',
      'A maintenance_window exception (granted through the operator API) applies when it covers the service, the environment and the start time, is not revoked, and was granted by someone other than the requester; it is checked again when the change is created, so a revoke in between refuses the change.',
      'Creating a change takes four change-platform steps (record, implementation plan, rollback plan, approval request or scheduling). A change is visible to change_get and change_search only when all four are done; an interrupted creation is finished by a retry with the same key or by the reconciler, never duplicated.',
    ],
    async handler(input, ctx) {
      const earlier = ctx.operation ? preparedFrom(ctx.operation.checkpoints) : null;
      let prepared: PreparedChange;
      if (earlier) {
        // An earlier delivery of this operation was reviewed and reached the platform: finish it as
        // reviewed then, even if the calendar has moved on since.
        prepared = earlier;
      } else {
        const verdict = await service.review(input, ctx.principal);
        if (!verdict.accepted) {
          // The code decides the status: FORBIDDEN and START_TIME_IN_PAST are failed, the rules' refusals rejected.
          const { code, message, resolution, field_errors } = verdict.refusal;
          return outcome.rejected(code, message, { resolution, field_errors });
        }
        ctx.annotate(reviewAnnotations(verdict.draft, verdict.exception));
        if (input.dry_run) {
          return outcome.validated(validatedResult(verdict.draft, verdict.exception), {
            message: 'The change request is valid; nothing was created (dry run).',
            warnings: verdict.warnings,
          });
        }
        // What runs is what the person saw: the review now must decide what they confirmed.
        const unconfirmed = confirmationRefusal(verdict.draft, verdict.exception, ctx.confirmation);
        if (unconfirmed) return unconfirmed;
        prepared = preparedChange(input, verdict.draft, verdict.warnings, verdict.exception);
      }
      if (earlier) ctx.annotate(reviewAnnotations(earlier.draft, earlier.exception));
      const operation = ctx.operation;
      if (!operation) throw new Error('change_create executed without an operation');
      const done = { ...operation.checkpoints };
      if (!earlier) {
        const confirmed = input.confirm_new_change === true;
        const claim = await claims.claim(
          ctx.principal,
          operation.id,
          prepared,
          confirmed,
          acceptedDuplicate(ctx.confirmation),
        );
        if (claim.kind !== 'claimed') return claimRefusal(claim);
        await operation.saveCheckpoint(PREPARED, prepared);
      }
      const creation = await completeChange(
        platform,
        operation.id,
        prepared,
        {
          done,
          save: (name, data) => operation.saveCheckpoint(name, data),
          noteChangeId: (changeId) => operation.addExternalRef(CHANGE_PLATFORM, changeId),
        },
        ctx.signal,
      );
      ctx.annotate({ dependency_result: creationDependencyResult(creation) });
      if (creation.kind === 'unavailable' && !creation.started) {
        // The platform never took this operation: forget the review, so that the next delivery of
        // the key (a failed operation may run again) is reviewed afresh against the calendar then.
        await operation.saveCheckpoint(PREPARED, null);
      }
      if (creation.kind === 'malformed') {
        ctx.log.error(
          { op: operation.id, problems: creation.problems },
          'change platform answer breaks its contract',
        );
      }
      const answer = creationOutcome(creation, prepared);
      await claims.follow(operation.id, answer.status);
      return answer;
    },
    async reconcile(snapshot, { signal }) {
      const verdict = await reconcileChangeCreation(platform, snapshot, signal);
      if (verdict.settled) await claims.follow(snapshot.id, verdict.outcome.status);
      return verdict;
    },
    onReviewResolved: (snapshot, decision) => claims.follow(snapshot.id, decision.resolution),
  });
}
