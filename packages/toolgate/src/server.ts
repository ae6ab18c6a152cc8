/**
 * toolgate/server: what a program that embeds the gateway needs instead of `toolgate serve`: the app
 * itself and its HTTP transport with extra route families, dev keys and dev tokens, a clock it can
 * shift, and the contract artifacts (`contract export`, `contract diff`, release ids) as values. The
 * simulation kit and the evaluation harness are built on it. Every name is documented in docs/api.md.
 */

export type { App, AppConfig } from './app/create-app.ts';
export { createApp } from './app/create-app.ts';
export type { DevKeys } from './auth/dev-keys.ts';
export { loadOrCreateDevKeys } from './auth/dev-keys.ts';
export type { MintOptions } from './auth/mint-token.ts';
export { mintToken } from './auth/mint-token.ts';
export { ACTORS } from './auth/principal.ts';
export type { TokenSubject } from './auth/token-claims.ts';
export { DEFAULT_TOKEN_TTL_SECONDS } from './auth/token-defaults.ts';
export type { KeySource } from './auth/token-verifier.ts';
export { TOOL_KINDS } from './contract/define-tool.ts';
export { anyEnvelopeSchema } from './contract/envelope.ts';
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
export type { RateLimitSettings } from './gateway/rate-limit-layer.ts';
export { ShiftableClock } from './time/clock.ts';
export { sendJson } from './transport/http-replies.ts';
export { HttpRouter } from './transport/http-router.ts';
export type {
  HttpRouteFamily,
  HttpTransport,
  HttpTransportOptions,
  RouteRequest,
} from './transport/http-server.ts';
export { startHttpTransport } from './transport/http-server.ts';
export { readBody } from './transport/read-body.ts';
