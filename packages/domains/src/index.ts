// The reference demo's one entry: the CLI reaches the demo only through a dynamic import of this file,
// when a command runs without a config.
export { DEMO_POLICY_DIR } from './demo-policies.ts';
export { referenceDomains } from './reference-domains.ts';
