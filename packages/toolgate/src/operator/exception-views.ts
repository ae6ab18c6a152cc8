import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { PolicyException } from '../operations/policy-exceptions.ts';

/** Where an exception stands at a moment: revoked, ended, in force, or yet to begin. */
export type ExceptionState = 'revoked' | 'ended' | 'active' | 'scheduled';

export function exceptionState(exception: PolicyException, now: number): ExceptionState {
  if (exception.revoked_at !== null) return 'revoked';
  if (Date.parse(exception.ends_at) <= now) return 'ended';
  return Date.parse(exception.starts_at) <= now ? 'active' : 'scheduled';
}

/**
 * An exception as the operator API answers it: the stored record and its state now. The target's fields
 * are repeated at the top level, as a request may give them (no target field shadows a record field).
 */
export function exceptionView(exception: PolicyException, now: number) {
  return { ...exception.target, ...exception, state: exceptionState(exception, now) };
}

/** A declared kind as the operator API and the console show it; `may_grant` for the asking token. */
export function exceptionKindView(definition: ExceptionDefinition, scopes: ReadonlySet<string>) {
  return {
    kind: definition.kind,
    title: definition.title,
    description: definition.description,
    grant_scope: definition.grantScope,
    max_duration_seconds: definition.maxDurationSeconds,
    target: definition.targetJsonSchema,
    may_grant: scopes.has(definition.grantScope),
  };
}
