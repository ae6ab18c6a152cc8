import { defineException, type HonouredException } from 'toolgate';
import { z } from 'zod';
import { serviceIdSchema } from './change-schemas.ts';
import type { ServiceCatalog } from './service-catalog.ts';
import { environmentSchema } from './systems/change-platform/change-record.ts';

/** What a maintenance-window exception is for: one service of the catalog in one environment. */
export const maintenanceWindowTarget = z.strictObject({
  service_id: serviceIdSchema,
  environment: environmentSchema,
});

/**
 * The changes module's exception kind: an approver (scope `changes:approve`) lets production changes of
 * one service start outside its maintenance windows for a span of at most 72 hours. Granted only for a
 * service of the approver's own tenant; another tenant's service is not found.
 */
export function maintenanceWindowException(catalog: ServiceCatalog) {
  return defineException({
    kind: 'maintenance_window',
    title: 'Maintenance-window exception',
    description:
      'Lets a production change of one service start outside the maintenance windows of that service. It never applies to a change its grantor requests, and no exception lifts a change freeze.',
    target: maintenanceWindowTarget,
    grantScope: 'changes:approve',
    maxDurationSeconds: 72 * 3600,
    async checkTarget(tenant, target) {
      return (await catalog.find(tenant, target.service_id)) ? { kind: 'known' } : { kind: 'unknown' };
    },
  });
}

/** How change_create's input names the exception its start may go ahead under (its policies read it). */
export function honouredMaintenanceWindow(
  exception: ReturnType<typeof maintenanceWindowException>,
): HonouredException {
  return {
    exception,
    target: (input) =>
      typeof input.service_id === 'string' && typeof input.environment === 'string'
        ? { service_id: input.service_id, environment: input.environment }
        : null,
    at: (input) => {
      const at = typeof input.start_time === 'string' ? Date.parse(input.start_time) : Number.NaN;
      return Number.isFinite(at) ? at : null;
    },
  };
}
