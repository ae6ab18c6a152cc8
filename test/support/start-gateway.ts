import { referenceDomains } from '../../packages/domains/src/reference-domains.ts';
import {
  type PrincipalRef,
  startTestGateway,
  TEST_CONTROLLER,
  type TestGateway,
  type TestGatewayOptions,
  toolsModule,
} from '../../packages/toolgate/src/testing/test-gateway.ts';

export type { PrincipalRef };
export { TEST_CONTROLLER };
export type StartedGateway = TestGateway;
export type StartGatewayOptions = TestGatewayOptions;

/**
 * The public testing entry's gateway (what a team's own tests use), serving the reference domains
 * unless the test names its own modules.
 */
export function startGateway(options: StartGatewayOptions = {}): Promise<StartedGateway> {
  return startTestGateway({ ...options, modules: options.modules ?? referenceDomains });
}

/** Serves test-only tools as a module with no tables; with principals, as a simulated module with no world. */
export const testToolsDomain = toolsModule;
