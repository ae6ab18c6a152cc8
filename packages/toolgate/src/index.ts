/**
 * toolgate: define business operations as tool contracts and serve them to agents as MCP tools whose
 * safety does not depend on the model. Every name here is documented in docs/api.md; nothing else
 * in the package is importable.
 */

// Configuration and modules: what `toolgate serve --config FILE` loads.
export type {
  BackgroundWork,
  ModuleContext,
  ModuleInstance,
  ToolgateModule,
} from './app/module.ts';
export { defineModule } from './app/module.ts';
export type { Actor, Principal } from './auth/principal.ts';
// Calling real systems over HTTP with the idempotency and unknown-outcome rules kept.
export type { BackendResult, RejectionMapping, RejectionRules } from './backend/backend-failure.ts';
export type { BackendLog, BackendOutcomeOptions } from './backend/backend-outcome.ts';
export { backendOutcome } from './backend/backend-outcome.ts';
export type {
  BackendCallContext,
  BackendRequest,
  HttpBackend,
  HttpBackendOptions,
  HttpMethod,
} from './backend/http-backend.ts';
export { createHttpBackend } from './backend/http-backend.ts';
export type { LookupContext, StatusDecision, StatusLookup } from './backend/status-lookup.ts';
export type { ToolgateConfig } from './config/define-config.ts';
export { defineConfig } from './config/define-config.ts';
// What another package adds to the CLI and to serving (docs/extensions.md).
export type {
  ExtensionCommand,
  ExtensionCommandContext,
  ExtensionOption,
  LoadedProject,
  NamedPrincipal,
  ServedEndpoint,
  ServeExtension,
  ToolgateExtension,
} from './config/toolgate-extension.ts';
export { defineExtension } from './config/toolgate-extension.ts';
// Helpers tools build their own fingerprints, digests and answers with.
export { canonicalJson, sha256Hex } from './contract/canonical-json.ts';
export { compiledSchema } from './contract/compiled-schema.ts';
// A person's confirmation of an execution (docs/confirmations.md).
export type {
  ConfirmationAsk,
  ConfirmationOption,
  ConfirmationView,
  ConfirmContext,
  ConfirmFallback,
  ConfirmRefusal,
  ConfirmSpec,
} from './contract/confirmation.ts';
// The input field an `agent`-fallback tool declares for the confirmation digest.
export { CONFIRMATION_FIELD } from './contract/confirmation.ts';
// Exceptions people grant to a module's rules (docs/exceptions.md).
export type {
  ExceptionDefinition,
  ExceptionSpec,
  ExceptionTargetCheck,
} from './contract/define-exception.ts';
export { defineException, ExceptionDefinitionError } from './contract/define-exception.ts';
// Tool contracts.
export type {
  AnyToolDefinition,
  HonouredException,
  Mutation,
  OperationHandle,
  OperationSnapshot,
  PolicyHookContext,
  ReconcileVerdict,
  ReviewDecisionView,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolExample,
  ToolKind,
  ToolSpec,
} from './contract/define-tool.ts';
export { defineTool } from './contract/define-tool.ts';
export type { FieldError, OutcomeEnvelope, OutcomeStatus, Warning } from './contract/envelope.ts';
export { warningSchema } from './contract/envelope.ts';
export type { ErrorCategory, ErrorCodeSpec } from './contract/error-catalog.ts';
export { defineErrorCodes, gatewayErrors } from './contract/error-catalog.ts';
export type {
  ActiveException,
  ExceptionMoment,
  ExceptionTarget,
  ToolExceptions,
} from './contract/handler-exceptions.ts';
export type { ToolOutcome } from './contract/outcome.ts';
export { outcome } from './contract/outcome.ts';
export type { RolloutRule } from './contract/rollout.ts';
export type { TextSchemaOptions } from './contract/schema-helpers.ts';
export { cursorSchema, idempotencyKeySchema, pageSizeSchema, textSchema } from './contract/schema-helpers.ts';
export type { ToolContractProblem } from './contract/tool-contract-error.ts';
export { ToolContractError } from './contract/tool-contract-error.ts';
export { CONTRACT_VERSION_META_KEY } from './contract/tool-versions.ts';
// A tool's parameters as a provider's function calling accepts them (docs/api.md).
export type { MovedKeyword, ProviderName, ProviderView } from './contract-artifacts/provider-view.ts';
export { PROVIDER_NAMES, providerInputSchema } from './contract-artifacts/provider-view.ts';
// Names on the wire: the confirmation form's fields and the `_meta` key carrying an idempotency key.
export { CHOICE_FIELD, CONFIRM_FIELD } from './gateway/confirmation-types.ts';
export { META_IDEMPOTENCY_KEY } from './gateway/input-layer.ts';
export type { OperationsTuning } from './operations/operations-tuning.ts';
export type {
  ExceptionQuery,
  ExceptionUse,
  ModuleExceptions,
  PolicyException,
} from './operations/policy-exceptions.ts';
// What a tool's policies see of the resource it acts on (docs/policies.md).
export type { PolicyEntity, PolicyEntityRef, PolicyValue } from './policy/policy-entity.ts';
export { policyEntityRef } from './policy/policy-entity.ts';
// Storage a module's own tables use.
export type { Migration, SqlDatabase, SqlDialect, SqlExecutor, SqlRow } from './store/sql-database.ts';
// What a handler tells the gateway about its call (ToolContext.annotate).
export type { CallAnnotations, DependencyResult } from './telemetry/call-annotations.ts';
export type { Clock } from './time/clock.ts';
// The MCP revision the stateless leg serves; the other is 2025-11-25.
export { REVISION_2026 } from './transport/results-2026.ts';
