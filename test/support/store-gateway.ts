import { simulationOf } from '@toolgate/simulation';
import { ShiftableClock } from 'toolgate/server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type StartedGateway, type StartGatewayOptions, startGateway } from './start-gateway.ts';
import type { StoreLocation, StoreTarget } from './store-targets.ts';

export interface StoreGatewaySuite {
  /** The gateway, once the suite's beforeAll has run. */
  readonly gw: StartedGateway;
  readonly clock: ShiftableClock;
}

/**
 * For the enclosing describe: a gateway over these modules on the target's store (background jobs off,
 * a shiftable clock), a fresh demo world before each test, everything removed after the suite.
 */
export function gatewayOnStore(
  target: StoreTarget,
  options: Omit<StartGatewayOptions, 'databaseUrl'>,
): StoreGatewaySuite {
  const clock = new ShiftableClock();
  let gw: StartedGateway | undefined;
  let location: StoreLocation | undefined;
  beforeAll(async () => {
    location = await target.create();
    gw = await startGateway({
      ...options,
      databaseUrl: location.config.databaseUrl,
      app: { ...options.app, backgroundJobs: false, clock },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await location?.dispose();
  });
  beforeEach(async () => {
    await simulationOf(gw!.app).resetWorld();
  });
  return {
    get gw() {
      if (!gw) throw new Error('the suite has not started its gateway yet');
      return gw;
    },
    clock,
  };
}
