import type { Criticality } from './service-catalog.ts';
import type { Environment, Risk } from './systems/change-platform/change-record.ts';

/** The group that approves every production change. */
export const PRODUCTION_APPROVERS = 'production-change-approvers';

const RISK_ORDER: readonly Risk[] = ['low', 'medium', 'high'];
/** Production changes that run this long are at least medium risk, whatever the service. */
const LONG_PRODUCTION_CHANGE_MINUTES = 240;
/** A critical service taken through a production change this long is high risk. */
const LONG_CRITICAL_CHANGE_MINUTES = 120;

export interface RiskAssessment {
  readonly effective: Risk;
  /** Why the policy raised the requested risk; null when it kept it. */
  readonly raisedBecause: string | null;
}

/**
 * The risk the change is handled at: the requested risk, raised (never lowered) to the floor the
 * policy sets for the service's criticality in this environment.
 */
export function assessRisk(
  requested: Risk,
  criticality: Criticality,
  environment: Environment,
  durationMinutes: number,
): RiskAssessment {
  const floors: { risk: Risk; reason: string }[] = [];
  if (environment === 'production' && criticality === 'critical')
    floors.push({ risk: 'medium', reason: 'critical service in production' });
  if (
    environment === 'production' &&
    criticality === 'critical' &&
    durationMinutes > LONG_CRITICAL_CHANGE_MINUTES
  )
    floors.push({
      risk: 'high',
      reason: `critical service in production for more than ${LONG_CRITICAL_CHANGE_MINUTES} minutes`,
    });
  if (environment === 'production' && criticality === 'high')
    floors.push({ risk: 'medium', reason: 'high-criticality service in production' });
  if (environment === 'staging' && criticality === 'critical')
    floors.push({ risk: 'medium', reason: 'critical service in staging' });
  if (environment === 'production' && durationMinutes > LONG_PRODUCTION_CHANGE_MINUTES)
    floors.push({
      risk: 'medium',
      reason: `production change longer than ${LONG_PRODUCTION_CHANGE_MINUTES} minutes`,
    });
  let effective = requested;
  let raisedBecause: string | null = null;
  for (const floor of floors) {
    if (rank(floor.risk) > rank(effective)) {
      effective = floor.risk;
      raisedBecause = floor.reason;
    }
  }
  return { effective, raisedBecause };
}

export interface ApprovalRequirement {
  readonly required: boolean;
  readonly group: string | null;
}

/** Every production change needs the production approvers; a high-risk change elsewhere needs its owners. */
export function approvalFor(environment: Environment, risk: Risk, ownerGroup: string): ApprovalRequirement {
  if (environment === 'production') return { required: true, group: PRODUCTION_APPROVERS };
  if (risk === 'high') return { required: true, group: ownerGroup };
  return { required: false, group: null };
}

function rank(risk: Risk): number {
  return RISK_ORDER.indexOf(risk);
}
