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

/** A backend call's result as the bounded dependency result its call's audit entry and span record. */
export function dependencyResultOf(result: BackendResult<unknown>): DependencyResult {
  return RESULTS[result.kind];
}
