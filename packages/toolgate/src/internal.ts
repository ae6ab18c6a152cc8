/**
 * toolgate/internal: the framework parts its sibling packages build on (the simulation kit, the
 * evaluation harness, the reference domains): the app itself, dev keys and tokens, the HTTP router and
 * transport, contract artifacts and the wire field names the harness reads. It is not an application
 * API: nothing here is documented in docs/api.md or kept compatible across minor versions; a team
 * imports `toolgate` and `toolgate/testing`.
 */

export { ShiftableClock } from './app/clock.ts';
export type { App } from './app/create-app.ts';
export { createApp } from './app/create-app.ts';
export type { DevKeys } from './auth/dev-keys.ts';
export { loadOrCreateDevKeys } from './auth/dev-keys.ts';
export { mintToken } from './auth/mint-token.ts';
export { ACTORS } from './auth/principal.ts';
export type { TokenSubject } from './auth/token-claims.ts';
export { DEFAULT_TOKEN_TTL_SECONDS } from './auth/token-defaults.ts';
export type { KeySource } from './auth/token-verifier.ts';
export { canonicalJson, sha256Hex } from './contract/canonical-json.ts';
export { compiledSchema } from './contract/compiled-schema.ts';
export { CONFIRMATION_FIELD } from './contract/confirmation.ts';
export { TOOL_KINDS } from './contract/define-tool.ts';
export type { OutcomeEnvelope } from './contract/envelope.ts';
export { anyEnvelopeSchema, warningSchema } from './contract/envelope.ts';
export type { ToolRegistry } from './contract/tool-registry.ts';
export type { ToolVerdict } from './contract-artifacts/contract-diff.ts';
export { diffContracts } from './contract-artifacts/contract-diff.ts';
export type { ContractDocument } from './contract-artifacts/contract-document.ts';
export {
  buildContractDocument,
  contractSha256,
  FRAMEWORK_BUILD,
  sortKeysDeep,
} from './contract-artifacts/contract-export.ts';
export { releaseIdOf } from './contract-artifacts/release-pin.ts';
export { loadServedRegistry } from './contract-artifacts/served-contract.ts';
export { CHOICE_FIELD, CONFIRM_FIELD } from './gateway/confirmation-types.ts';
export { META_IDEMPOTENCY_KEY } from './gateway/input-layer.ts';
export type { RateLimitSettings } from './gateway/rate-limit-layer.ts';
export type { CallAnnotations, DependencyResult } from './telemetry/call-annotations.ts';
export { sendJson } from './transport/http-replies.ts';
export { HttpRouter } from './transport/http-router.ts';
export type { HttpRouteFamily, HttpTransport, RouteRequest } from './transport/http-server.ts';
export { startHttpTransport } from './transport/http-server.ts';
export { readBody } from './transport/read-body.ts';
export { MODERN_REVISION } from './transport/results-2026.ts';
