/**
 * toolgate/testing: what a team needs to test its own tools in-process against a real store: a
 * gateway over real HTTP with dev tokens and a client whose user answers confirmations from a script.
 * The simulation kit for a team's own simulated dependency (a fault injector, an effects ledger, the
 * fault gate) is the package @toolgate/simulation. Faults armed against a real HTTP service that
 * tools reach through the backend kit are here. The project's own tests and the evaluation harness
 * use the same helpers. Every name is documented in docs/api.md.
 */

export type { TokenSubject } from './auth/token-claims.ts';
export type { BackendFaultKind } from './backend/backend-faults.ts';
export { backendFaults } from './backend/backend-faults.ts';
export type { AskedQuestion, ConfirmingClient, ScriptedAnswer } from './testing/confirming-client.ts';
export { confirmingClient } from './testing/confirming-client.ts';
export type { PrincipalRef, TestGateway, TestGatewayOptions } from './testing/test-gateway.ts';
export { startTestGateway, TEST_CONTROLLER, toolsModule } from './testing/test-gateway.ts';
