import type { FieldError, PolicyException, Principal, Warning } from 'toolgate';
import { findCredentials } from './credential-scan.ts';
import { nextWindow, type WindowOccurrence, type WindowRule, windowHolding } from './maintenance-windows.ts';
import { formatAtOffset, offsetMinutesOf } from './rfc3339.ts';
import { approvalFor, assessRisk } from './risk-policy.ts';
import type { CatalogService } from './service-catalog.ts';
import { type ChangeFreeze, freezeBlocks } from './systems/change-platform/change-freeze-calendar.ts';
import type { ChangeDraft, Environment, Risk } from './systems/change-platform/change-record.ts';

export const PRODUCTION_SCOPE = 'changes:create:production';

/** The business part of a change_create request (what the policy judges). */
export interface ChangeRequest {
  readonly service_id: string;
  readonly environment: Environment;
  readonly summary: string;
  readonly implementation_plan: string;
  readonly rollback_plan: string;
  readonly start_time: string;
  readonly duration_minutes: number;
  readonly risk: Risk;
}

/** Everything the policy needs to know about the world, read beforehand. */
export interface PolicyFacts {
  readonly principal: Principal;
  readonly now: number;
  readonly service: CatalogService | null;
  /** Catalog ids that resemble an unknown service_id, best first. */
  readonly suggestions: readonly string[];
  /** Approved windows of the service in the requested environment. */
  readonly windows: readonly WindowRule[];
  readonly freeze: ChangeFreeze | null;
  /** Maintenance-window exceptions in force for the service, environment and requested start. */
  readonly exceptions: readonly PolicyException[];
}

/** The exception a change outside its window goes ahead under, and the person who granted it. */
export interface AppliedException {
  readonly exception_id: string;
  readonly granted_by: string;
}

export interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly resolution: string;
  readonly field_errors: FieldError[];
}

export type PolicyVerdict =
  | {
      readonly accepted: true;
      readonly draft: ChangeDraft;
      readonly warnings: Warning[];
      /** Set when the start is outside every approved window and an exception allows it. */
      readonly exception: AppliedException | null;
    }
  | { readonly accepted: false; readonly refusal: Refusal };

/** Said with every refusal: a corrected request is a new request, and keys bind to one request. */
const NEW_KEY_NOTE =
  ' A corrected request is a new request: if this idempotency_key was already used with dry_run false, use a new one.';

/**
 * Judges one change request, in the order of seed 003: authority for the environment, the
 * service, the content, the schedule, the freeze, the maintenance window (or an exception to it
 * granted by someone other than the requester); then the effective risk and the approval it needs.
 * Pure: the same facts give the same verdict.
 */
export function evaluateChangeRequest(request: ChangeRequest, facts: PolicyFacts): PolicyVerdict {
  const refuse = (refusal: Refusal): PolicyVerdict => ({ accepted: false, refusal });
  const { service, principal } = facts;
  if (request.environment === 'production' && !principal.scopes.has(PRODUCTION_SCOPE)) {
    return refuse({
      code: 'FORBIDDEN',
      message: 'This caller may not create production changes.',
      resolution: `Production changes need scope ${PRODUCTION_SCOPE}. Ask a change engineer who holds it; do not switch environments unless the user asks for that.`,
      field_errors: [],
    });
  }
  if (!service) {
    const hint = facts.suggestions.length > 0 ? ` Similar ids: ${facts.suggestions.join(', ')}.` : '';
    return refuse({
      code: 'UNKNOWN_SERVICE',
      message: `There is no service "${request.service_id}" in your service catalog.`,
      resolution:
        'Call cmdb_service_resolve with the name the user gave and use a service_id it returns; never guess an id.',
      field_errors: [{ field: 'service_id', code: 'UNKNOWN_SERVICE', message: `Not in the catalog.${hint}` }],
    });
  }
  if (service.status === 'retired') {
    return refuse({
      code: 'SERVICE_RETIRED',
      message: `Service ${service.serviceId} is retired and takes no new changes.`,
      resolution: 'Ask the user which service replaced it, then resolve that one with cmdb_service_resolve.',
      field_errors: [{ field: 'service_id', code: 'SERVICE_RETIRED', message: 'Retired service.' }],
    });
  }
  const secrets = findCredentials({
    summary: request.summary,
    implementation_plan: request.implementation_plan,
    rollback_plan: request.rollback_plan,
  });
  if (secrets.length > 0) {
    return refuse({
      code: 'CREDENTIALS_IN_PLAN',
      message: 'The request looks like it contains a credential; changes never carry secrets.',
      resolution: `Remove the secret and refer to it by its vault entry name instead.${NEW_KEY_NOTE}`,
      field_errors: secrets.map((s) => ({
        field: s.field,
        code: 'LOOKS_LIKE_CREDENTIAL',
        message: `Contains what looks like ${s.kind}.`,
      })),
    });
  }
  const startAt = Date.parse(request.start_time);
  const endAt = startAt + request.duration_minutes * 60_000;
  const offset = offsetMinutesOf(request.start_time);
  const at = (ms: number) => formatAtOffset(ms, offset);
  if (startAt <= facts.now) {
    return refuse({
      code: 'START_TIME_IN_PAST',
      message: `The requested start time ${request.start_time} is not in the future (now is ${at(facts.now)}).`,
      resolution: `Ask the user for a future start time.${NEW_KEY_NOTE}`,
      field_errors: [
        { field: 'start_time', code: 'MUST_BE_FUTURE', message: 'Choose a future date and time.' },
      ],
    });
  }
  const { freeze } = facts;
  const unfrozen = (o: WindowOccurrence) =>
    !freeze ||
    !freezeBlocks(freeze, request.environment, o.startAt, o.startAt + request.duration_minutes * 60_000);
  if (freeze && freezeBlocks(freeze, request.environment, startAt, endAt)) {
    const after =
      request.environment === 'production'
        ? nextWindow(facts.windows, Math.max(freeze.endsAt, facts.now), request.duration_minutes, unfrozen)
        : null;
    return refuse({
      code: 'CHANGE_FREEZE_ACTIVE',
      message: `A change freeze ("${freeze.reason}") covers ${request.environment} from ${at(freeze.startsAt)} until ${at(freeze.endsAt)}.`,
      resolution: `Choose a start after the freeze${after ? ` (the first approved window after it begins at ${at(after.startAt)})` : ''}, or escalate to the change advisory board; there is no override.${NEW_KEY_NOTE}`,
      field_errors: [
        {
          field: 'start_time',
          code: 'IN_CHANGE_FREEZE',
          message: `The freeze ends at ${at(freeze.endsAt)}.`,
        },
      ],
    });
  }
  if (
    request.environment === 'production' &&
    !windowHolding(facts.windows, startAt, request.duration_minutes)
  ) {
    const granted = facts.exceptions.find((e) => e.granted_by !== principal.subject);
    if (granted) {
      return accept(request, facts, service, startAt, {
        exception_id: granted.exception_id,
        granted_by: granted.granted_by,
      });
    }
    const own = facts.exceptions[0];
    const next = nextWindow(facts.windows, startAt, request.duration_minutes, unfrozen);
    const longest = Math.max(0, ...facts.windows.map((w) => w.lengthMinutes));
    const fieldErrors: FieldError[] = next
      ? [
          {
            field: 'start_time',
            code: 'OUTSIDE_APPROVED_WINDOW',
            message: `The next approved window begins at ${at(next.startAt)} and ends at ${at(next.endAt)}.`,
          },
        ]
      : [
          {
            field: 'duration_minutes',
            code: 'LONGER_THAN_ANY_WINDOW',
            message: `The longest approved window of ${service.serviceId} in production is ${longest} minutes.`,
          },
        ];
    return refuse({
      code: 'MAINTENANCE_WINDOW_REQUIRED',
      message: `The requested production start time is outside an approved maintenance window of ${service.serviceId}${own ? ', and the only exception covering it was granted by the requester of this change' : ''}.`,
      resolution: own
        ? `Exception ${own.exception_id} covers this start, but it was granted by you (${own.granted_by}): the requester of a change cannot grant its exception. Ask another approver to grant one, or ask the user to choose a time inside an approved window (see field_errors).${NEW_KEY_NOTE}`
        : `Ask the user to choose a time inside an approved window (see field_errors), or an approver (scope changes:approve) to grant a maintenance_window exception for this service and start; no request field overrides the window.${NEW_KEY_NOTE}`,
      field_errors: own
        ? [
            ...fieldErrors,
            {
              field: 'start_time',
              code: 'EXCEPTION_GRANTED_BY_REQUESTER',
              message: `Exception ${own.exception_id} was granted by the requester and does not apply.`,
            },
          ]
        : fieldErrors,
    });
  }
  return accept(request, facts, service, startAt, null);
}

function accept(
  request: ChangeRequest,
  facts: PolicyFacts,
  service: CatalogService,
  startAt: number,
  exception: AppliedException | null,
): PolicyVerdict {
  const risk = assessRisk(request.risk, service.criticality, request.environment, request.duration_minutes);
  const approval = approvalFor(request.environment, risk.effective, service.ownerGroup);
  const warnings: Warning[] = [];
  if (risk.raisedBecause) {
    warnings.push({
      code: 'RISK_RAISED',
      message: `Requested risk ${request.risk} was raised to ${risk.effective} by policy (${risk.raisedBecause}).`,
    });
  }
  if (approval.required) {
    const what = request.environment === 'production' ? 'Production execution' : 'This high-risk change';
    warnings.push({
      code: 'APPROVAL_REQUIRED',
      message: `${what} requires approval by ${approval.group} before the scheduled start.`,
    });
  }
  if (exception) {
    warnings.push({
      code: 'MAINTENANCE_WINDOW_EXCEPTION',
      message: `The start is outside every approved window of ${service.serviceId}; exception ${exception.exception_id}, granted by ${exception.granted_by}, allows it.`,
    });
  }
  return {
    accepted: true,
    warnings,
    exception,
    draft: {
      tenant: facts.principal.tenant,
      requested_by: facts.principal.subject,
      service_id: service.serviceId,
      environment: request.environment,
      summary: request.summary,
      start_time: request.start_time,
      start_at: startAt,
      duration_minutes: request.duration_minutes,
      requested_risk: request.risk,
      effective_risk: risk.effective,
      approval_required: approval.required,
      approval_group: approval.group,
    },
  };
}
