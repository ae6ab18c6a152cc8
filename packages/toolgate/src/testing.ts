/**
 * toolgate/testing: what a team needs to test its own tools in-process against a real store: a
 * gateway over real HTTP with dev tokens and a client whose user answers confirmations from a script.
 * Extensions (the simulation kit's, for a team's own simulated dependencies) plug into the gateway
 * through `extensions` (docs/extensions.md). The project's own tests use the same helpers.
 * Every name is documented in docs/api.md.
 */

export type { TokenSubject } from './auth/token-claims.ts';
export type { AskedQuestion, ConfirmingClient, ScriptedAnswer } from './testing/confirming-client.ts';
export { confirmingClient } from './testing/confirming-client.ts';
export type { PrincipalRef, TestGateway, TestGatewayOptions } from './testing/test-gateway.ts';
export { startTestGateway, TEST_CONTROLLER, toolsModule } from './testing/test-gateway.ts';
