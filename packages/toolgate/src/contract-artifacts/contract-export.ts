import packageJson from '../../package.json' with { type: 'json' };
import { approverScopesOf } from '../contract/approver-scopes.ts';
import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import { taskNotesOf, taskSupportOf } from '../contract/task-support.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import {
  CONTRACT_FORMAT,
  type ContractDocument,
  type ContractExceptionKind,
  type ContractImplementation,
  type ContractPolicySet,
  type ContractTool,
  idempotencyPolicySchema,
} from './contract-document.ts';

/** The part of a tool the model reads when it chooses and calls it. */
export interface AgentVisibleDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
  readonly output_schema: Record<string, unknown>;
  readonly annotations: Record<string, unknown>;
}

/**
 * SHA-256 of the RFC 8785 canonical JSON of name, description, schemas and annotations (which carry
 * the title). Equal definitions hash equally however their keys were ordered.
 */
export function definitionHash(definition: AgentVisibleDefinition): string {
  return sha256Hex(
    canonicalJson({
      name: definition.name,
      description: definition.description,
      input_schema: definition.input_schema,
      output_schema: definition.output_schema,
      annotations: definition.annotations,
    }),
  );
}

function contractTool(tool: RegisteredTool): ContractTool {
  const { definition, meta } = tool;
  const idempotency = meta.idempotency === undefined ? null : idempotencyPolicySchema.parse(meta.idempotency);
  const base = {
    name: definition.name,
    description: definition.description,
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
    annotations: { ...definition.annotations },
  };
  return {
    ...base,
    title: definition.title,
    namespace: definition.namespace,
    kind: definition.kind,
    mutation: definition.mutation ?? null,
    version: definition.version,
    scopes: [...definition.scopes].sort(),
    errors: [...tool.errors.values()]
      .map((e) => ({
        code: e.code,
        category: e.category,
        retryable: e.retryable,
        description: e.description,
      }))
      .sort((a, b) => compareText(a.code, b.code)),
    examples: definition.examples.map((e) => ({ title: e.title, input: { ...e.input } })),
    timeout_ms: definition.timeoutMs,
    supports_dry_run: definition.supportsDryRun ?? false,
    idempotency,
    duplicate_suspicion: definition.duplicateSuspicion
      ? {
          window_seconds: definition.duplicateSuspicion.windowSeconds,
          confirm_field: definition.duplicateSuspicion.confirmField,
        }
      : null,
    ...(definition.confirm
      ? { confirmation: { when: definition.confirm.when, fallback: definition.confirm.fallback ?? 'refuse' } }
      : {}),
    // Both fields published, none left to a default.
    ...(definition.rollout
      ? {
          rollout: {
            groups: [...(definition.rollout.groups ?? [])].sort(),
            percent: definition.rollout.percent ?? 0,
          },
        }
      : {}),
    external_systems: [...(definition.externalSystems ?? [])].sort(),
    notes: [...(definition.notes ?? []), ...taskNotesOf(definition.kind)],
    task_support: taskSupportOf(definition.kind),
    definition_sha256: definitionHash(base),
  };
}

/** The toolgate build this is, as exported contracts and evaluation results name it. */
export const FRAMEWORK_BUILD = `toolgate ${packageJson.version}`;

/** What a gateway serves besides its tools: who serves them, its policy set and its modules' exception kinds. */
export interface ContractSurroundings {
  /** The project serving the tools; absent: only the toolgate build is named. */
  readonly implementation?: ContractImplementation;
  /** The Cedar policy set calls are decided by; absent or null: none. */
  readonly policySet?: ContractPolicySet | null;
  /** The exception kinds the gateway's modules declare (ExceptionCatalog.all()). */
  readonly exceptionKinds?: readonly ExceptionDefinition[];
}

/**
 * Every registered tool as a contract document, tools sorted by name, with who serves them, the policy
 * set, and the approver scopes and exception kinds the modules declare. Contains no clock or host data.
 */
export function buildContractDocument(
  registry: ToolRegistry,
  surroundings: ContractSurroundings = {},
): ContractDocument {
  const tools = registry
    .all()
    .map(contractTool)
    // Two served versions of one name sit together, oldest major first.
    .sort(
      (a, b) =>
        compareText(a.name, b.name) || Number.parseInt(a.version, 10) - Number.parseInt(b.version, 10),
    );
  const kinds = surroundings.exceptionKinds ?? [];
  return {
    format: CONTRACT_FORMAT,
    implementation: surroundings.implementation ?? { name: null, version: null, framework: FRAMEWORK_BUILD },
    policy_set: surroundings.policySet ?? null,
    approver_scopes: approverScopesOf(
      kinds,
      registry.all().map((t) => t.definition),
    ).map(({ scope, gates }) => ({ scope, gates: [...gates] })),
    exceptions: kinds.map(contractExceptionKind).sort((a, b) => compareText(a.kind, b.kind)),
    tools,
  };
}

function contractExceptionKind(kind: ExceptionDefinition): ContractExceptionKind {
  return {
    kind: kind.kind,
    title: kind.title,
    description: kind.description,
    grant_scope: kind.grantScope,
    max_duration_seconds: kind.maxDurationSeconds,
    target_schema: kind.targetJsonSchema,
  };
}

/**
 * SHA-256 of the contract as `contract export` writes it, without who serves it, its policy set, its
 * approver scopes and exception kinds: the same tools hash the same whichever build and project
 * exported them, and the hashes of exports made before those fields were written stay what they were.
 */
export function contractSha256(document: ContractDocument): string {
  const {
    implementation: _implementation,
    policy_set: _policySet,
    approver_scopes: _approverScopes,
    exceptions: _exceptions,
    ...tools
  } = document;
  return sha256Hex(serializeContract(tools));
}

/** Deep copy with object keys sorted by code unit; arrays keep their order (it carries meaning). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => compareText(a, b))
        .map(([k, v]) => [k, sortKeysDeep(v)]),
    );
  }
  return value;
}

/** The committed form: sorted keys, two-space indentation, trailing newline; byte-stable across runs. */
export function serializeContract(document: ContractDocument): string {
  return `${JSON.stringify(sortKeysDeep(document), null, 2)}\n`;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
