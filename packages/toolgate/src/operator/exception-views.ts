import type { PolicyException } from '../operations/policy-exceptions.ts';

/** Where an exception stands at a moment: revoked, ended, in force, or yet to begin. */
export type ExceptionState = 'revoked' | 'ended' | 'active' | 'scheduled';

export function exceptionState(exception: PolicyException, now: number): ExceptionState {
  if (exception.revoked_at !== null) return 'revoked';
  if (Date.parse(exception.ends_at) <= now) return 'ended';
  return Date.parse(exception.starts_at) <= now ? 'active' : 'scheduled';
}

/** An exception as the operator API answers it: the stored record and its state now. */
export function exceptionView(exception: PolicyException, now: number) {
  return { ...exception, state: exceptionState(exception, now) };
}
