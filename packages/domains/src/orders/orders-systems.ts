import type { SimulationContext } from '@toolgate/simulation';
import { AddressValidationService } from './systems/address-validation/address-validation-service.ts';
import { CarrierWorld } from './systems/carrier/carrier-world.ts';
import { SimulatedCarrier } from './systems/carrier/simulated-carrier.ts';
import { SimulatedWarehouse } from './systems/warehouse/simulated-warehouse.ts';

/** The external systems the orders domain talks to, all simulated over the domain's database. */
export interface OrdersSystems {
  readonly warehouse: SimulatedWarehouse;
  readonly carrier: SimulatedCarrier;
  readonly carrierWorld: CarrierWorld;
  readonly validator: AddressValidationService;
}

export function createOrdersSystems(context: SimulationContext): OrdersSystems {
  const { db, faults, ledger, clock } = context;
  const now = () => clock.now();
  return {
    warehouse: new SimulatedWarehouse(db, faults, ledger, now),
    carrier: new SimulatedCarrier(db, faults, ledger, now),
    carrierWorld: new CarrierWorld(db, ledger, now),
    validator: new AddressValidationService(faults),
  };
}
