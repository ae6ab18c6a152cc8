import { AddressValidationService } from '../../external/address-validation/address-validation-service.ts';
import { CarrierWorld } from '../../external/carrier/carrier-world.ts';
import { SimulatedCarrier } from '../../external/carrier/simulated-carrier.ts';
import type { SimulationContext } from '../../external/simulation-world.ts';
import { SimulatedWarehouse } from '../../external/warehouse/simulated-warehouse.ts';

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
