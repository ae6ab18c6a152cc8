import type { Actor, ModuleInstance } from 'toolgate';
import type { TokenSubject } from 'toolgate/server';

/** A demo identity the dev setup mints tokens for; its subject owns demo data. */
export interface DemoPrincipal {
  /** Stable handle used in fixtures, scenarios and the printed token list. */
  readonly name: string;
  readonly subject: string;
  readonly tenant: string;
  readonly actor: Actor;
  readonly scopes: readonly string[];
  /** Group memberships its tokens carry (claim `groups`); policies grant by them. */
  readonly groups?: readonly string[];
  readonly description: string;
}

/** What the start-up banner offers a newcomer from a simulated module: whom to be, what to call, which ids. */
export interface DemoIntroduction {
  /** The demo principal (by name) to try first. */
  readonly principal: string;
  /** A first call worth making as that principal. */
  readonly firstCall?: { readonly tool: string; readonly arguments: Readonly<Record<string, string>> };
  /** A few demo ids worth knowing, one line each ("order of acme-customer-alice, editable: ord_..."). */
  readonly ids: readonly string[];
}

/**
 * Hooks of a module that brings a simulated world (demo data, world actions, demo principals). The test
 * API, `toolgate eval` and the start-up banner use them; a module that calls real systems has none.
 */
export interface SimulationHooks {
  readonly principals: readonly DemoPrincipal[];
  /** Inserts the deterministic demo world; does nothing when it is already there. */
  seed(): Promise<void>;
  /** Deletes this module's rows and its simulated systems' state, so `seed` can start afresh. */
  reset(): Promise<void>;
  /** Demo ids by role and state, for GET /test-api/fixtures. */
  fixtures(): Promise<Record<string, unknown>>;
  /** What the start-up banner shows a newcomer of this module's world. */
  introduction?(): DemoIntroduction;
  /**
   * A world action for POST /test-api/simulate (the warehouse locks an order, the carrier decides a
   * redirect). Returns null when the target is not one of this module's systems.
   */
  simulate?(
    target: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null>;
}

// Kept on globalThis, as the worlds are, so that a module created by another copy of the package in the
// same process is still known as simulated by this one.
const HOOKS = Symbol.for('toolgate.simulation-hooks');
const registry = globalThis as { [HOOKS]?: WeakMap<ModuleInstance, SimulationHooks> };
registry[HOOKS] ??= new WeakMap<ModuleInstance, SimulationHooks>();
const hooksByInstance = registry[HOOKS];

/**
 * Marks a module instance as one that brings a simulated world: `create` returns the plain instance
 * wrapped by this. The gateway serves it like any other; the kit (test API, eval, banner) finds the hooks.
 */
export function withSimulationHooks(instance: ModuleInstance, hooks: SimulationHooks): ModuleInstance {
  hooksByInstance.set(instance, hooks);
  return instance;
}

/** The simulation hooks a module instance was created with, if any. */
export function simulationHooksOf(instance: ModuleInstance): SimulationHooks | undefined {
  return hooksByInstance.get(instance);
}

/** The claims a demo principal's tokens carry. */
export function demoTokenSubject(p: DemoPrincipal): TokenSubject {
  return { sub: p.subject, tenant: p.tenant, actor: p.actor, scopes: p.scopes, groups: p.groups ?? [] };
}
