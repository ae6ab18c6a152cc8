import type { ToolgateModule } from 'toolgate';
import { changesDomain } from './changes/changes-module.ts';
import { ordersDomain } from './orders/orders-domain.ts';
import { workitemsDomain } from './workitems/workitems-module.ts';

/** The reference domains `toolgate serve` runs without a config, one per seed: modules like any team's. */
export const referenceDomains: readonly ToolgateModule[] = [ordersDomain, changesDomain, workitemsDomain];
