import { simulationMigrations, withSimulation, withSimulationHooks } from '@toolgate/simulation';
import type { ModuleContext, ModuleInstance, ToolgateModule } from 'toolgate';
import { withPolicyResource } from '../policy-hooks.ts';
import { AddressChangeService } from './address-change-service.ts';
import { changeUnshippedAddressTool } from './change-unshipped-address-tool.ts';
import { demoFixtures } from './demo-fixtures.ts';
import { demoId } from './demo-orders.ts';
import { ORDER_PRINCIPALS } from './demo-principals.ts';
import { resetDemoWorld, seedDemoWorld } from './demo-world.ts';
import { getRedirectTool } from './get-redirect-tool.ts';
import { orderResource } from './order-policy-resource.ts';
import { ordersGetTool } from './orders-get-tool.ts';
import { ordersMigration, redirectGuardMigration } from './orders-migration.ts';
import { createOrdersSystems } from './orders-systems.ts';
import { RedirectService } from './redirect-service.ts';
import { requestRedirectTool } from './request-redirect-tool.ts';
import { ADDRESS_VALIDATION_SYSTEM } from './systems/address-validation/address-validation-service.ts';
import { carrierMigration } from './systems/carrier/carrier-migration.ts';
import { CARRIER_SYSTEM } from './systems/carrier/carrier-records.ts';
import { WAREHOUSE_SYSTEM } from './systems/warehouse/simulated-warehouse.ts';
import { warehouseMigration } from './systems/warehouse/warehouse-migration.ts';
import { simulateOrdersWorld } from './world-actions.ts';

export interface OrdersDomainOptions {
  /** How long a call waits for the warehouse before answering outcome_unknown (default 3 s). */
  readonly warehouseWaitMs?: number;
  /** How long a call waits for the carrier before answering outcome_unknown (default 3 s). */
  readonly carrierWaitMs?: number;
}

/** Systems whose world actions this module answers. */
const WORLD_TARGETS = new Set([WAREHOUSE_SYSTEM, CARRIER_SYSTEM]);
const SYSTEMS = [WAREHOUSE_SYSTEM, CARRIER_SYSTEM, ADDRESS_VALIDATION_SYSTEM];

/**
 * The orders reference domain (seed 000): orders and their delivery addresses before carrier handoff,
 * carrier redirects after it, and the simulated warehouse, carrier and address validation.
 */
export function createOrdersDomain(options: OrdersDomainOptions = {}): ToolgateModule {
  return {
    name: 'orders',
    migrations: [
      ...simulationMigrations,
      ordersMigration,
      warehouseMigration,
      carrierMigration,
      redirectGuardMigration,
    ],
    create(moduleContext: ModuleContext): ModuleInstance {
      const context = withSimulation(moduleContext);
      const { db, clock } = context;
      const systems = createOrdersSystems(context);
      const addressChanges = new AddressChangeService({
        db,
        warehouse: systems.warehouse,
        validator: systems.validator,
        clock,
        warehouseWaitMs: options.warehouseWaitMs ?? 3_000,
      });
      const redirects = new RedirectService({
        db,
        carrier: systems.carrier,
        validator: systems.validator,
        clock,
        carrierWaitMs: options.carrierWaitMs ?? 3_000,
      });
      return withSimulationHooks(
        {
          tools: [
            ordersGetTool(db),
            withPolicyResource(changeUnshippedAddressTool(addressChanges), orderResource(db)),
            withPolicyResource(requestRedirectTool(redirects), orderResource(db)),
            getRedirectTool(db, systems.carrier),
          ],
        },
        {
          principals: ORDER_PRINCIPALS,
          seed: () => seedDemoWorld(db, systems, clock.now()),
          async reset() {
            for (const system of SYSTEMS) context.faults.clear(system);
            await context.ledger.clear(SYSTEMS);
            await resetDemoWorld(db, systems);
          },
          fixtures: () => demoFixtures(db),
          introduction: () => ({
            principal: 'acme-customer-alice',
            firstCall: { tool: 'orders_get', arguments: { order_id: demoId('ord_', 'alice-editable') } },
            ids: [
              `order of acme-customer-alice, address still changeable: ${demoId('ord_', 'alice-editable')}`,
              `order of acme-customer-alice, with the carrier (redirect): ${demoId('ord_', 'alice-in-transit')}`,
            ],
          }),
          async simulate(target, action, params) {
            if (!WORLD_TARGETS.has(target)) return null;
            return simulateOrdersWorld(db, systems, () => clock.now(), target, action, params);
          },
        },
      );
    },
  };
}

/** The orders domain with default settings, as `toolgate serve` runs it. */
export const ordersDomain: ToolgateModule = createOrdersDomain();
