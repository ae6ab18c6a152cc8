import type { Principal } from 'toolgate';
import { sha256Hex } from 'toolgate';
import type { EvalWorld, Fixtures } from './eval-world.ts';
import type { LoadedScenario, PrincipalRef } from './scenario-schema.ts';
import type { TemplateScope } from './template.ts';

/**
 * Finds the scenario's principal among the demo principals, minus any scopes the scenario removes, or
 * takes the caller the scenario states in full.
 */
export function resolvePrincipal(ref: PrincipalRef, fixtures: Fixtures): Principal & { name: string } {
  if (typeof ref === 'object' && 'subject' in ref) {
    return { ...ref, scopes: new Set(ref.scopes), groups: [...ref.groups] };
  }
  const name = typeof ref === 'string' ? ref : ref.name;
  const found = fixtures.principals[name];
  if (!found) {
    const known = Object.keys(fixtures.principals).sort().join(', ') || '(none)';
    throw new Error(`unknown principal ${name}; the demo world has: ${known}`);
  }
  if (typeof ref === 'string' || ref.without_scopes.length === 0) return found;
  const removed = new Set(ref.without_scopes);
  return { ...found, scopes: new Set([...found.scopes].filter((s) => !removed.has(s))) };
}

/**
 * The values a trial's templates see: fixtures, the principal, and idempotency keys that are stable
 * for one (scenario, trial, name) so a recorded trajectory replays against a fresh world. World time
 * is read once, at its first use in the trial: a retry renders `now_plus_hours(72)` exactly as the first
 * attempt did, instead of a second later and so as another request.
 */
export function trialScope(
  scenario: LoadedScenario,
  trial: number,
  fixtures: Fixtures,
  principal: Principal & { name: string },
  world: EvalWorld,
): TemplateScope {
  let frozenNow: number | undefined;
  return {
    values: {
      fixtures,
      principal: {
        name: principal.name,
        subject: principal.subject,
        tenant: principal.tenant,
        actor: principal.actor,
      },
      scenario: { id: scenario.id },
      trial,
    },
    key: (name) => `eval-${sha256Hex(`${scenario.id}/${trial}/${name}`).slice(0, 24)}`,
    now: () => {
      frozenNow ??= world.now();
      return frozenNow;
    },
  };
}
