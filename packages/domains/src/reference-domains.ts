import type { ToolgateModule } from 'toolgate';
import { changesDomain } from './changes/changes-module.ts';
import { ordersDomain } from './orders/orders-domain.ts';
import { workitemsDomain } from './workitems/workitems-module.ts';

/** The reference domains, one per seed: modules like any team's, served by the repository's toolgate.config.ts. */
export const referenceDomains: readonly ToolgateModule[] = [ordersDomain, changesDomain, workitemsDomain];
