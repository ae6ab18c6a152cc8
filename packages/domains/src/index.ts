// The reference demo's one entry: the repository's toolgate.config.ts serves it with the simulation kit.
export { DEMO_POLICY_DIR } from './demo-policies.ts';
export { referenceDomains } from './reference-domains.ts';
