import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type { Principal } from '../auth/principal.ts';
import { cedarValue } from './policy-context.ts';
import type { PolicyDirectory, PolicyMeta } from './policy-directory.ts';
import type { PolicyEntity, PolicyEntityRef } from './policy-entity.ts';

/** One question for the policy set: may this principal call this tool on this resource, with this context? */
export interface PolicyRequest {
  readonly principal: Principal;
  /** The tool's name (`Action::"<tool>"`). */
  readonly action: string;
  readonly resource: PolicyEntity;
  /** The validated input (`context.input`). */
  readonly input: Readonly<Record<string, unknown>>;
  /** What the tool's module adds (`context.facts`). */
  readonly facts: Readonly<Record<string, unknown>>;
}

export type PolicyDecision =
  | { readonly allowed: true; readonly policies: readonly string[] }
  | {
      readonly allowed: false;
      /**
       * The forbid policy that denied or, when no permit held, the permit the call did not meet (the
       * first for the action with a `@reason`); null when the action has none.
       */
      readonly policyId: string | null;
      /** The denying policy's `@reason`, or a generic sentence for the default deny. */
      readonly reason: string;
      /** Evaluation errors, for the log (never shown to the caller). */
      readonly errors: readonly string[];
    };

/** The entity type of every principal; its groups are `Group` entities it is `in`. */
export const PRINCIPAL_TYPE = 'Principal';
export const GROUP_TYPE = 'Group';
/** The resource of a tool that names none of its own. */
export const TOOL_TYPE = 'Tool';

const DEFAULT_DENY_REASON = 'No policy permits this caller to make this call.';
const MAX_CACHED_DECISIONS = 10_000;

/**
 * One half of a principal's id: `%` and `/` percent-encoded, so the `/` between tenant and subject is
 * the only one and no tenant or subject can be written to pass for another pair.
 */
const idPart = (claim: string) => claim.replaceAll('%', '%25').replaceAll('/', '%2F');

/** The Cedar id of a principal: `tenant/subject`, each half with `%` and `/` percent-encoded. */
export function principalId(principal: Pick<Principal, 'tenant' | 'subject'>): string {
  return `${idPart(principal.tenant)}/${idPart(principal.subject)}`;
}

/** The principal as a Cedar entity: id `tenant/subject`, its claims as attributes, its groups as parents. */
export function principalEntity(principal: Principal): cedar.EntityJson {
  return {
    uid: { type: PRINCIPAL_TYPE, id: principalId(principal) },
    attrs: {
      subject: principal.subject,
      tenant: principal.tenant,
      actor: principal.actor,
      scopes: [...principal.scopes].sort(),
      groups: [...(principal.groups ?? [])].sort(),
    },
    parents: [...(principal.groups ?? [])].sort().map((id) => ({ type: GROUP_TYPE, id })),
  };
}

function resourceEntity(resource: PolicyEntity): cedar.EntityJson {
  return {
    uid: { type: resource.type, id: resource.id },
    attrs: (cedarValue(resource.attributes ?? {}, true) ?? {}) as Record<string, cedar.CedarValueJson>,
    parents: (resource.parents ?? []).map((p) => ({ type: p.type, id: p.id })),
  };
}

const refOf = (uid: cedar.EntityUidJson): PolicyEntityRef => ('__entity' in uid ? uid.__entity : uid);

function sameEntity(a: cedar.EntityUidJson, b: cedar.EntityUidJson): boolean {
  return refOf(a).type === refOf(b).type && refOf(a).id === refOf(b).id;
}

/** The action constraint covers this action: it is named, or one of its groups is (for `in`). */
function coversAction(
  constraint: cedar.ActionConstraint,
  action: string,
  groups: ReadonlySet<string> | undefined,
): boolean {
  if (constraint.op === 'All') return true;
  if (constraint.op === '==') return !('entity' in constraint) || refOf(constraint.entity).id === action;
  const named = 'entities' in constraint ? constraint.entities.map(refOf) : [refOf(constraint.entity)];
  return named.some((ref) => ref.id === action || (groups?.has(ref.id) ?? false));
}

/** The principal constraint may hold for this principal (whatever the policy's conditions say). */
function coversPrincipal(constraint: cedar.PrincipalConstraint, principal: cedar.EntityJson): boolean {
  const uid = refOf(principal.uid);
  const within = (ref: PolicyEntityRef) =>
    (ref.type === uid.type && ref.id === uid.id) ||
    principal.parents.some((p) => refOf(p).type === ref.type && refOf(p).id === ref.id);
  switch (constraint.op) {
    case 'All':
      return true;
    case '==':
      return 'entity' in constraint
        ? within(refOf(constraint.entity)) && refOf(constraint.entity).type === uid.type
        : true;
    case 'in':
      return 'entity' in constraint ? within(refOf(constraint.entity)) : true;
    case 'is':
      return (
        constraint.entity_type === uid.type &&
        (!constraint.in || !('entity' in constraint.in) || within(refOf(constraint.in.entity)))
      );
  }
}

/** Per context record, the attribute names policies read, or all of it; `all`: the whole context. */
type ContextShape = 'all' | Map<string, 'all' | Set<string>>;

function contextShapeOf(policies: readonly PolicyMeta[]): ContextShape {
  const shape = new Map<string, 'all' | Set<string>>();
  for (const { contextReads } of policies) {
    if (contextReads.whole.has('*')) return 'all';
    for (const record of contextReads.whole) shape.set(record, 'all');
    for (const [record, names] of contextReads.attributes) {
      const known = shape.get(record);
      if (known === 'all') continue;
      shape.set(record, new Set([...(known ?? []), ...names]));
    }
  }
  return shape;
}

let engines = 0;

/**
 * Answers decisions from one loaded policy set, preparsed once. Each decision is given only the parts
 * of the context the action's policies read (none for most actions) and is cached per principal,
 * resource and those parts, for the engine's lifetime: one policy version; nothing is cached across
 * versions.
 */
export class PolicyEngine {
  readonly version: string;
  readonly #meta: ReadonlyMap<string, PolicyMeta>;
  readonly #actionGroups: ReadonlyMap<string, ReadonlySet<string>>;
  readonly #setId: string;
  readonly #readsContext = new Map<string, boolean>();
  readonly #contextShape = new Map<string, ContextShape>();
  readonly #decisions = new Map<string, PolicyDecision>();

  constructor(directory: PolicyDirectory) {
    this.version = directory.version;
    this.#meta = directory.meta;
    this.#actionGroups = directory.actionGroups;
    engines += 1;
    this.#setId = `toolgate-${directory.version}-${engines}`;
    const parsed = cedar.preparsePolicySet(this.#setId, { staticPolicies: { ...directory.policies } });
    if (parsed.type === 'failure') {
      throw new Error(
        `policy set ${directory.dir} did not preparse: ${parsed.errors.map((e) => e.message).join('; ')}`,
      );
    }
  }

  /** The policy's public reason and location, for telemetry and `policy test`. */
  policy(id: string): PolicyMeta | undefined {
    return this.#meta.get(id);
  }

  /** Whether any policy that may apply to the action reads `context` (then its decisions are not cached). */
  readsContext(action: string): boolean {
    let reads = this.#readsContext.get(action);
    if (reads === undefined) {
      reads = [...this.#meta.values()].some(
        (p) => p.readsContext && coversAction(p.action, action, this.#actionGroups.get(action)),
      );
      this.#readsContext.set(action, reads);
    }
    return reads;
  }

  /**
   * Whether some permit policy could allow this principal the action on some resource: its scope
   * names the action (or all actions) and the principal (or one of its groups). Conditions are not
   * evaluated, so a tool shown may still be denied; a tool hidden can never be permitted.
   */
  couldPermit(principal: Principal, action: string): boolean {
    const entity = principalEntity(principal);
    return [...this.#meta.values()].some(
      (p) =>
        p.effect === 'permit' &&
        coversAction(p.action, action, this.#actionGroups.get(action)) &&
        coversPrincipal(p.principal, entity),
    );
  }

  /**
   * Whether some policy that may apply to the action reads `context.facts`: the module's facts are
   * looked up only then (they may cost a query).
   */
  readsFacts(action: string): boolean {
    if (!this.readsContext(action)) return false;
    const shape = this.#shapeOf(action);
    return shape === 'all' || shape.has('facts');
  }

  #shapeOf(action: string): ContextShape {
    let shape = this.#contextShape.get(action);
    if (!shape) {
      shape = contextShapeOf(
        [...this.#meta.values()].filter(
          (p) => p.readsContext && coversAction(p.action, action, this.#actionGroups.get(action)),
        ),
      );
      this.#contextShape.set(action, shape);
    }
    return shape;
  }

  /**
   * Only the parts of the context the action's policies read: converting and passing the whole input
   * into Cedar costs more than the decision itself.
   */
  #neededContext(request: PolicyRequest): Record<string, unknown> {
    const shape = this.#shapeOf(request.action);
    const full: Record<string, Readonly<Record<string, unknown>>> = {
      input: request.input,
      facts: request.facts,
    };
    if (shape === 'all') return full;
    const needed: Record<string, unknown> = {};
    for (const [record, names] of shape) {
      const source = full[record];
      if (!source) continue;
      if (names === 'all') {
        needed[record] = source;
        continue;
      }
      const picked: Record<string, unknown> = {};
      for (const name of names) if (name in source) picked[name] = source[name];
      needed[record] = picked;
    }
    return needed;
  }

  decide(request: PolicyRequest): PolicyDecision {
    const principal = principalEntity(request.principal);
    const resource = resourceEntity(request.resource);
    // A decision depends on nothing but the entities and the parts of the context its policies read
    // (Cedar has no clock or randomness): the same of those, the same decision.
    const context = this.readsContext(request.action)
      ? ((cedarValue(this.#neededContext(request)) ?? {}) as cedar.Context)
      : {};
    const cacheKey = JSON.stringify([principal, request.action, resource, context]);
    const cached = this.#decisions.get(cacheKey);
    if (cached) return cached;
    const answer = cedar.statefulIsAuthorized({
      principal: principal.uid,
      action: { type: 'Action', id: request.action },
      resource: resource.uid,
      context,
      preparsedPolicySetId: this.#setId,
      validateRequest: false,
      entities: sameEntity(principal.uid, resource.uid) ? [principal] : [principal, resource],
    });
    const decision = this.#decision(answer, request.action);
    if (this.#decisions.size >= MAX_CACHED_DECISIONS) this.#decisions.clear();
    this.#decisions.set(cacheKey, decision);
    return decision;
  }

  #decision(answer: cedar.AuthorizationAnswer, action: string): PolicyDecision {
    if (answer.type === 'failure')
      return this.#unpermitted(
        action,
        answer.errors.map((e) => e.message),
      );
    const { decision, diagnostics } = answer.response;
    if (decision === 'allow') return { allowed: true, policies: diagnostics.reason };
    const errors = diagnostics.errors.map((e) => `${e.policyId}: ${e.error.message}`);
    const forbidding = diagnostics.reason.map((id) => this.#meta.get(id)).find((p) => p?.effect === 'forbid');
    if (!forbidding) return this.#unpermitted(action, errors);
    return {
      allowed: false,
      policyId: forbidding.id,
      reason: forbidding.reason ?? `Denied by policy ${forbidding.id}.`,
      errors,
    };
  }

  /**
   * The default deny: no permit held. Its public reason is that of the first permit for the action
   * that gives one (the rule the call did not meet), else a generic sentence.
   */
  #unpermitted(action: string, errors: readonly string[]): PolicyDecision {
    const permit = [...this.#meta.values()].find(
      (p) =>
        p.effect === 'permit' &&
        p.reason !== null &&
        coversAction(p.action, action, this.#actionGroups.get(action)),
    );
    if (!permit) return { allowed: false, policyId: null, reason: DEFAULT_DENY_REASON, errors };
    return { allowed: false, policyId: permit.id, reason: permit.reason!, errors };
  }
}
