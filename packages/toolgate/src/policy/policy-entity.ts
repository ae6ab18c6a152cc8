/** A value an entity attribute or the context may hold, in Cedar's JSON form. */
export type PolicyValue =
  | string
  | number
  | boolean
  | readonly PolicyValue[]
  | { readonly __entity: PolicyEntityRef }
  | { readonly [key: string]: PolicyValue };

/** A reference to an entity by type and id (`Group::"team-payments"`). */
export interface PolicyEntityRef {
  readonly type: string;
  readonly id: string;
}

/**
 * What a tool acts on, as its policies see it: a typed entity with attributes (the tenant, the owner,
 * the owning group as `policyEntityRef('Group', ...)`) and parents (`resource in Project::"p"`).
 */
export interface PolicyEntity extends PolicyEntityRef {
  readonly attributes?: Readonly<Record<string, PolicyValue>>;
  readonly parents?: readonly PolicyEntityRef[];
}

/** An attribute value that names another entity, e.g. a service's owning group. */
export function policyEntityRef(type: string, id: string): { readonly __entity: PolicyEntityRef } {
  return { __entity: { type, id } };
}
