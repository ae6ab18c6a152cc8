import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CONFIRM_FALLBACKS } from '../contract/confirmation.ts';
import { TOOL_KINDS } from '../contract/define-tool.ts';

/** Identifies the file format, so a future layout change is detected instead of misread. */
export const CONTRACT_FORMAT = 'toolgate-contract/1';

const jsonSchemaNode = z.record(z.string(), z.unknown());

export const contractErrorSchema = z.strictObject({
  code: z.string(),
  category: z.string(),
  retryable: z.boolean(),
  description: z.string(),
});
export type ContractError = z.infer<typeof contractErrorSchema>;

export const contractExampleSchema = z.strictObject({
  title: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export type ContractExample = z.infer<typeof contractExampleSchema>;

export const contractAnnotationsSchema = z.strictObject({
  title: z.string(),
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});

export const idempotencyPolicySchema = z.strictObject({
  key: z.string(),
  scope: z.string(),
  retention_seconds: z.number().int().positive(),
  dry_run_reserves_key: z.boolean(),
});

export const duplicateSuspicionSchema = z.strictObject({
  window_seconds: z.number().int().positive(),
  confirm_field: z.string(),
});

/** When a person must confirm an execution, and what a client that cannot ask them gets. */
export const confirmationPolicySchema = z.strictObject({
  when: z.string(),
  fallback: z.enum(CONFIRM_FALLBACKS),
});

/** Who is served this version while another major of its name is served too (docs/versions.md). */
export const rolloutPolicySchema = z.strictObject({
  groups: z.array(z.string()),
  percent: z.number().int().min(0).max(100),
});
export type ContractRollout = z.infer<typeof rolloutPolicySchema>;

/** One tool as published: what the agent sees plus what the server enforces. */
export const contractToolSchema = z.strictObject({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  namespace: z.string(),
  kind: z.enum(TOOL_KINDS),
  mutation: z.enum(['create', 'update', 'delete']).nullable(),
  version: z.string(),
  input_schema: jsonSchemaNode,
  output_schema: jsonSchemaNode,
  annotations: contractAnnotationsSchema,
  scopes: z.array(z.string()),
  errors: z.array(contractErrorSchema),
  examples: z.array(contractExampleSchema),
  timeout_ms: z.number(),
  supports_dry_run: z.boolean(),
  idempotency: idempotencyPolicySchema.nullable(),
  duplicate_suspicion: duplicateSuspicionSchema.nullable(),
  /** Present only for tools that ask a person to confirm (`defineTool({ confirm })`). */
  confirmation: confirmationPolicySchema.optional(),
  /** Present only for a version served beside another major of its name, to the principals it admits. */
  rollout: rolloutPolicySchema.optional(),
  external_systems: z.array(z.string()),
  notes: z.array(z.string()),
  /** MCP `execution.taskSupport` (absent in contracts exported before tasks were served). */
  task_support: z.enum(['optional', 'forbidden']).optional(),
  /** SHA-256 of the canonical JSON of what the model reads; a changed hash is a changed tool. */
  definition_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ContractTool = z.infer<typeof contractToolSchema>;

const sha256Digest = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * Who serves the tools: the team's project (`name@version` from the package.json beside the config,
 * the git commit it was exported at and whether the checkout had changes) and the toolgate build.
 * `commit` and `dirty` are absent from an export made with `--no-commit`, and null outside git.
 */
export const contractImplementationSchema = z.strictObject({
  name: z.string().nullable(),
  version: z.string().nullable(),
  commit: z.string().nullable().optional(),
  dirty: z.boolean().nullable().optional(),
  /** The toolgate build (`toolgate 0.1.0`). */
  framework: z.string(),
});
export type ContractImplementation = z.infer<typeof contractImplementationSchema>;

/** The Cedar policy set calls are decided by: its version and every file it is made of. */
export const contractPolicySetSchema = z.strictObject({
  /** The `policy_version` audit entries and spans carry. */
  policy_version: z.string(),
  /** The schema file first, then the policy files by name; `path` is relative to the policy directory. */
  files: z.array(z.strictObject({ path: z.string(), sha256: sha256Digest })),
});
export type ContractPolicySet = z.infer<typeof contractPolicySetSchema>;

/** One scope a module declares for its approvers, with what it gates. */
export const contractApproverScopeSchema = z.strictObject({
  scope: z.string(),
  gates: z.array(
    z.union([
      z.strictObject({ gates: z.literal('exception'), kind: z.string() }),
      z.strictObject({ gates: z.enum(['confirmation', 'review']), tool: z.string() }),
    ]),
  ),
});

/** One kind of exception a module declares (`defineException`), as approvers and reviewers read it. */
export const contractExceptionKindSchema = z.strictObject({
  kind: z.string(),
  title: z.string(),
  description: z.string(),
  grant_scope: z.string(),
  max_duration_seconds: z.number().int().positive(),
  target_schema: jsonSchemaNode,
});
export type ContractExceptionKind = z.infer<typeof contractExceptionKindSchema>;

export const contractDocumentSchema = z.strictObject({
  format: z.literal(CONTRACT_FORMAT),
  /**
   * Who exported it; a `toolgate 0.1.0` string in older exports, absent in the oldest. It names who
   * serves the tools, not what they are: diff and the contract hash leave it out.
   */
  implementation: z.union([z.string(), contractImplementationSchema]).optional(),
  /** The Cedar policy set served; null when calls are decided by the tools' scopes alone. Not hashed. */
  policy_set: contractPolicySetSchema.nullable().optional(),
  /** The approver scopes the modules declare, by scope (absent in older exports). Not hashed. */
  approver_scopes: z.array(contractApproverScopeSchema).optional(),
  /** The exception kinds the modules declare, by kind (absent in older exports). Not hashed. */
  exceptions: z.array(contractExceptionKindSchema).optional(),
  tools: z.array(contractToolSchema),
});
export type ContractDocument = z.infer<typeof contractDocumentSchema>;

/**
 * How findings and reports name a tool: its name, or `name@version` for a name the document holds in
 * more than one version.
 */
export function toolLabel(tool: ContractTool, document: ContractDocument): string {
  const versions = document.tools.filter((other) => other.name === tool.name).length;
  return versions > 1 ? `${tool.name}@${tool.version}` : tool.name;
}

/** Reads and checks a contract file; throws with the file name and the first problems when it is not one. */
export function readContractFile(path: string): ContractDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path} is not readable: ${(error as Error).message}`);
  }
  return parseContract(text, path);
}

/** Parses and checks contract JSON; `source` names it in the error. */
export function parseContract(text: string, source: string): ContractDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const result = contractDocumentSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues
      .slice(0, 5)
      .map((issue) => `/${issue.path.join('/')}: ${issue.message}`)
      .join('; ');
    throw new Error(`${source} is not a ${CONTRACT_FORMAT} document: ${problems}`);
  }
  return result.data;
}
