import type { DomainModule } from '../app/domain-module.ts';

/** The reference domains served by `toolgate serve`, one per seed. */
export const referenceDomains: readonly DomainModule[] = [];
