import { setTimeout as sleep } from 'node:timers/promises';
import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from './external-errors.ts';
import type { ExternalCall, FaultInjector } from './faults.ts';

/**
 * Runs one call into a simulated external system through the armed faults:
 * - `unavailable` / `reject`: throws before anything is applied;
 * - `timeout`: nothing is applied and no answer comes before the caller's signal aborts;
 * - `delay_ms`: the system applies after the delay even if the caller stopped waiting (a late answer);
 * - `drop_response_after_apply`: applies, then the answer is lost;
 * - `omit_field`: applies and answers, but the answer lacks `params.field` (an output regression of the
 *   system; a dotted path reaches into nested objects, arrays lose it in every element).
 * `apply` must itself be idempotent by operation/request id.
 */
export async function throughFaults<T>(
  faults: FaultInjector,
  system: string,
  call: ExternalCall,
  signal: AbortSignal,
  apply: () => Promise<T>,
): Promise<T> {
  const fault = faults.take(system, call);
  if (!fault) return apply();
  switch (fault.fault) {
    case 'unavailable':
      throw new ExternalUnavailableError(system);
    case 'reject':
      throw new ExternalRejectedError(
        system,
        fault.params?.code ?? 'REJECTED',
        fault.params?.message ?? `${system} refused`,
      );
    case 'timeout':
      await waitForAbort(signal, fault.params?.ms ?? 120_000);
      throw new ExternalOutcomeUnknownError(system, 'timeout');
    case 'drop_response_after_apply':
      await apply();
      throw new ExternalOutcomeUnknownError(system, 'response_lost');
    case 'delay_ms': {
      const late = sleep(fault.params?.ms ?? 1000).then(apply);
      late.catch(() => undefined);
      return raceAbort(late, signal, system);
    }
    case 'omit_field':
      return withoutField(await apply(), fault.params?.field ?? 'state');
  }
}

/** The answer without the member at `path` (dotted for nested objects); arrays lose it in every element. */
function withoutField<T>(answer: T, path: string): T {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const strip = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(strip);
    const { [head]: member, ...others } = value as Record<string, unknown>;
    return rest.length === 0 ? others : { ...others, [head]: withoutField(member, rest.join('.')) };
  };
  return strip(answer) as T;
}

async function waitForAbort(signal: AbortSignal, ms: number): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // aborted: the caller gave up, which is the point of this fault
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal, system: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new ExternalOutcomeUnknownError(system, 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ExternalOutcomeUnknownError(system, 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
