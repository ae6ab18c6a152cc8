import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.ts';

/**
 * Who sees a newer major of a tool while an older one is still served under the same name: the
 * members of any listed group (the token's `groups` claim), and a stable share of subjects. A
 * principal matching neither sees the version without a rollout.
 */
export interface RolloutRule {
  /** Principals in any of these groups see this version. */
  readonly groups?: readonly string[];
  /** Whole percent (0..100) of subjects, by a stable hash of tenant, subject and tool name. */
  readonly percent?: number;
}

/** The rule's problems as one sentence each; empty when it is well formed. */
export function rolloutProblems(rule: RolloutRule): string[] {
  const problems: string[] = [];
  const { groups, percent } = rule;
  if (groups === undefined && percent === undefined) {
    problems.push('rollout names neither groups nor percent, so it admits nobody');
  }
  if (groups !== undefined && (groups.length === 0 || groups.some((g) => g.trim().length === 0))) {
    problems.push('rollout.groups must list at least one non-empty group name');
  }
  if (percent !== undefined && !(Number.isInteger(percent) && percent >= 0 && percent <= 100)) {
    problems.push(`rollout.percent ${percent} must be a whole number from 0 to 100`);
  }
  return problems;
}

/**
 * The subject's bucket, 0..99, for this tool: the same tenant, subject and tool always land in the
 * same bucket, so a principal does not flip between versions from one call to the next, and raising
 * the percent only adds subjects.
 */
export function rolloutBucket(tenant: string, subject: string, tool: string): number {
  const digest = createHash('sha256').update(`${tenant}\n${subject}\n${tool}`).digest();
  return digest.readUInt32BE(0) % 100;
}

/** Whether the rule admits this principal to the version that carries it. */
export function rolloutAdmits(rule: RolloutRule, principal: Principal, tool: string): boolean {
  const groups = principal.groups ?? [];
  if (rule.groups?.some((group) => groups.includes(group))) return true;
  const percent = rule.percent ?? 0;
  return percent > 0 && rolloutBucket(principal.tenant, principal.subject, tool) < percent;
}
