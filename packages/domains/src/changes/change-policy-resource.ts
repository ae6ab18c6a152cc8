import type { ModuleExceptions, PolicyHookContext } from 'toolgate';
import { policyEntityRef } from 'toolgate';
import type { PolicyResourceHook } from '../policy-hooks.ts';
import type { ServiceCatalog } from './service-catalog.ts';

/**
 * The service a change is for, as its policies see it: `Service::"tenant/service_id"` with its owning
 * group (a `Group` entity, so that `principal in resource.owner_group` reads as membership), its
 * criticality and status. Looked up in the caller's tenant only: another tenant's service is null,
 * like a missing one, and the tool answers its own unknown-service refusal.
 */
export function changeServiceResource(catalog: ServiceCatalog): PolicyResourceHook {
  return async (input, { principal }) => {
    const serviceId = input.service_id;
    if (typeof serviceId !== 'string') return null;
    const service = await catalog.find(principal.tenant, serviceId);
    if (!service) return null;
    return {
      type: 'Service',
      id: `${service.tenant}/${service.serviceId}`,
      attributes: {
        tenant: service.tenant,
        service_id: service.serviceId,
        owner_group: policyEntityRef('Group', service.ownerGroup),
        criticality: service.criticality,
        status: service.status,
      },
    };
  };
}

/** What a change's policies read as `context.facts` (declared in the demo's Cedar schema). */
export type ChangeCreateFacts = {
  /**
   * The maintenance-window exceptions in force for the service, environment and requested start, each
   * with who granted it (a policy compares `granted_by` with `principal.subject` for four eyes).
   */
  readonly maintenance_exceptions: readonly { exception_id: string; granted_by: string }[];
};

/**
 * The facts of a change request its policies may read: the exceptions in force for a production start.
 * Read as the policy decides; the service reads them again next to the write, so an exception revoked
 * in between never lets a change through.
 */
export function changeCreateFacts(
  catalog: ServiceCatalog,
  exceptions: ModuleExceptions,
): (input: Record<string, unknown>, ctx: PolicyHookContext) => Promise<ChangeCreateFacts> {
  return async (input, { principal }) => {
    const startAt = typeof input.start_time === 'string' ? Date.parse(input.start_time) : Number.NaN;
    const serviceId = input.service_id;
    const environment = input.environment;
    if (typeof serviceId !== 'string' || typeof environment !== 'string' || !Number.isFinite(startAt)) {
      return { maintenance_exceptions: [] };
    }
    const service = await catalog.find(principal.tenant, serviceId);
    if (!service) return { maintenance_exceptions: [] };
    const active = await exceptions.active({
      tenant: principal.tenant,
      kind: 'maintenance_window',
      serviceId: service.serviceId,
      environment,
      at: startAt,
    });
    return {
      maintenance_exceptions: active.map((e) => ({ exception_id: e.exception_id, granted_by: e.granted_by })),
    };
  };
}
