import type { Clock, ModuleExceptions, Principal } from 'toolgate';
import { type ChangeRequest, evaluateChangeRequest, type PolicyVerdict } from './change-policy.ts';
import type { ServiceCatalog } from './service-catalog.ts';
import { resolveServices, type ServiceCandidate } from './service-resolution.ts';
import type { ChangePlatform } from './systems/change-platform/change-platform.ts';

/** How many look-alike ids an UNKNOWN_SERVICE refusal names. */
const SUGGESTIONS = 3;

/**
 * The change-management rules at the edge of I/O: reads the facts a request is judged on (the
 * caller's catalog entry, the service's windows, the platform's freeze calendar) and hands them to
 * the pure policy, with the maintenance-window exceptions in force for a production start. Nothing
 * here writes; the claim re-checks an exception the verdict relies on next to the write.
 */
export class ChangeService {
  constructor(
    readonly catalog: ServiceCatalog,
    readonly platform: ChangePlatform,
    private readonly clock: Clock,
    private readonly exceptions: ModuleExceptions,
  ) {}

  /** The verdict on a request, exactly as a dry run reports it. */
  async review(request: ChangeRequest, principal: Principal): Promise<PolicyVerdict> {
    const service = await this.catalog.find(principal.tenant, request.service_id);
    const suggestions = service
      ? []
      : (await this.resolve(principal.tenant, request.service_id))
          .slice(0, SUGGESTIONS)
          .map((c) => c.service.serviceId);
    const windows = service
      ? await this.catalog.windows(principal.tenant, service.serviceId, request.environment)
      : [];
    const freeze = await this.platform.freezes.current(principal.tenant);
    const startAt = Date.parse(request.start_time);
    const exceptions =
      service && request.environment === 'production' && Number.isFinite(startAt)
        ? await this.exceptions.active({
            tenant: principal.tenant,
            kind: 'maintenance_window',
            target: { environment: request.environment, service_id: service.serviceId },
            at: startAt,
          })
        : [];
    return evaluateChangeRequest(request, {
      principal,
      now: this.clock.now(),
      service,
      suggestions,
      windows,
      freeze,
      exceptions,
    });
  }

  /** Catalog services of this tenant ranked against a human description. */
  async resolve(tenant: string, query: string): Promise<ServiceCandidate[]> {
    return resolveServices(query, await this.catalog.list(tenant));
  }
}
