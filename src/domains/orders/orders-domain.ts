import type { DomainContext, DomainInstance, DomainModule } from '../../app/domain-module.ts';
import { carrierMigration } from '../../external/carrier/carrier-migration.ts';
import { warehouseMigration } from '../../external/warehouse/warehouse-migration.ts';
import { AddressChangeService } from './address-change-service.ts';
import { changeUnshippedAddressTool } from './change-unshipped-address-tool.ts';
import { demoFixtures } from './demo-fixtures.ts';
import { ORDER_PRINCIPALS } from './demo-principals.ts';
import { resetDemoWorld, seedDemoWorld } from './demo-world.ts';
import { getRedirectTool } from './get-redirect-tool.ts';
import { ordersGetTool } from './orders-get-tool.ts';
import { ordersMigration } from './orders-migration.ts';
import { createOrdersSystems } from './orders-systems.ts';
import { RedirectService } from './redirect-service.ts';
import { requestRedirectTool } from './request-redirect-tool.ts';
import { simulateOrdersWorld } from './world-actions.ts';

export interface OrdersDomainOptions {
  /** How long a call waits for the warehouse before answering outcome_unknown (default 3 s). */
  readonly warehouseWaitMs?: number;
  /** How long a call waits for the carrier before answering outcome_unknown (default 3 s). */
  readonly carrierWaitMs?: number;
}

const SIMULATED_SYSTEMS = new Set(['warehouse', 'carrier']);

/**
 * The orders reference domain (seed 000): orders and their delivery addresses before carrier handoff,
 * carrier redirects after it, and the simulated warehouse, carrier and address validation.
 */
export function createOrdersDomain(options: OrdersDomainOptions = {}): DomainModule {
  return {
    name: 'orders',
    migrations: [ordersMigration, warehouseMigration, carrierMigration],
    create(context: DomainContext): DomainInstance {
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
      return {
        tools: [
          ordersGetTool(db),
          changeUnshippedAddressTool(addressChanges),
          requestRedirectTool(redirects),
          getRedirectTool(db, systems.carrier),
        ],
        principals: ORDER_PRINCIPALS,
        seed: () => seedDemoWorld(db, systems, clock.now()),
        reset: () => resetDemoWorld(db, systems),
        fixtures: () => demoFixtures(db),
        async simulate(target, action, params) {
          if (!SIMULATED_SYSTEMS.has(target)) return null;
          return simulateOrdersWorld(db, systems, () => clock.now(), target, action, params);
        },
      };
    },
  };
}

/** The orders domain with default settings, as `toolgate serve` runs it. */
export const ordersDomain: DomainModule = createOrdersDomain();
