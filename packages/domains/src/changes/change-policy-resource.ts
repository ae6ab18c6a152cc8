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
