import type { DomainModule } from '../app/domain-module.ts';
import { changesDomain } from './changes/changes-module.ts';
import { ordersDomain } from './orders/orders-domain.ts';
import { workitemsDomain } from './workitems/workitems-module.ts';

/** The reference domains served by `toolgate serve`, one per seed. */
export const referenceDomains: readonly DomainModule[] = [ordersDomain, changesDomain, workitemsDomain];
