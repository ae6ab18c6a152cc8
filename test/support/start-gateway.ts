import { referenceDomains } from '@toolgate/domains';
import { type DemoPrincipal, simulationExtension, withSimulationHooks } from '@toolgate/simulation';
import type { AnyToolDefinition, ToolgateModule } from 'toolgate';
import {
  type PrincipalRef,
  startTestGateway,
  TEST_CONTROLLER,
  type TestGateway,
  type TestGatewayOptions,
  toolsModule,
} from 'toolgate/testing';

export type { PrincipalRef };
export { TEST_CONTROLLER };
export type StartedGateway = TestGateway;
export interface StartGatewayOptions extends Omit<TestGatewayOptions, 'principals'> {
  /** Demo principals of the `tools`, served as a simulated module with no world. */
  readonly principals?: readonly DemoPrincipal[];
}

/**
 * The public testing entry's gateway (what a team's own tests use) with the simulation kit's
 * extension, serving the reference domains unless the test names its own modules.
 */
export function startGateway(options: StartGatewayOptions = {}): Promise<StartedGateway> {
  const { principals, tools, ...rest } = options;
  const modules = [...(options.modules ?? referenceDomains)];
  if (tools || principals) modules.push(testToolsDomain(tools ?? [], principals ?? []));
  return startTestGateway({
    ...rest,
    modules,
    extensions: [simulationExtension, ...(options.extensions ?? [])],
  });
}

/** Serves test-only tools as a module with no tables; with principals, as a simulated module with no world. */
export function testToolsDomain(
  tools: readonly AnyToolDefinition[],
  principals: readonly DemoPrincipal[] = [],
): ToolgateModule {
  if (principals.length === 0) return toolsModule(tools);
  return {
    name: 'tools',
    create: () =>
      withSimulationHooks(
        { tools },
        { principals, seed: async () => {}, reset: async () => {}, fixtures: async () => ({}) },
      ),
  };
}
