import { fileURLToPath } from 'node:url';

/** The Cedar policies the demo ships (`policies/` at the package root), used when serving the demo. */
export const DEMO_POLICY_DIR = fileURLToPath(new URL('../policies', import.meta.url));
