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
 * - `drop_response_after_apply`: applies, then the answer is lost.
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
  }
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
