import type { DependencyResult } from '../telemetry/call-annotations.ts';
import type { BackendResult } from './backend-failure.ts';

const RESULTS: Readonly<Record<BackendResult<unknown>['kind'], DependencyResult>> = {
  ok: 'ok',
  rejected: 'refused',
  unavailable: 'unavailable',
  unknown: 'unknown',
  contract_violation: 'invalid_answer',
  unexpected_status: 'invalid_answer',
};

/**
 * A backend call's result as the bounded dependency result its call's audit entry and span record:
 * `timeout` when nothing can have been applied and the last attempt ran out of time. A write that may
 * have been applied stays `unknown`, which matters more than why.
 */
export function dependencyResultOf(result: BackendResult<unknown>, lastTimedOut: boolean): DependencyResult {
  if (result.kind === 'unavailable' && lastTimedOut) return 'timeout';
  return RESULTS[result.kind];
}
