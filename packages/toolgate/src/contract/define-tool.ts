import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { ToolExceptions } from '../contract/handler-exceptions.ts';
import type { PolicyEntity } from '../policy/policy-entity.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { CallAnnotations } from '../telemetry/call-annotations.ts';
import { isApproverScope } from './approver-scopes.ts';
import {
  type ConfirmationView,
  type ConfirmFallback,
  type ConfirmSpec,
  confirmationErrors,
  confirmSpecProblems,
} from './confirmation.ts';
import type { ExceptionDefinition } from './define-exception.ts';
import { duplicateErrors, type ErrorCodeSpec } from './error-catalog.ts';
import type { OperationMode } from './fingerprint.ts';
import type { ToolOutcome } from './outcome.ts';
import { paramHeaderProblems } from './param-headers.ts';
import { type RolloutRule, rolloutProblems } from './rollout.ts';
import { reportContractProblems, type ToolContractProblem } from './tool-contract-error.ts';
import { environmentReader, type ToolTelemetrySpec, toolTelemetryProblems } from './tool-telemetry.ts';

export const TOOL_KINDS = ['read', 'write', 'request'] as const;
/** read: no side effect; write: changes state we own; request: asks a third party that decides later. */
export type ToolKind = (typeof TOOL_KINDS)[number];

/** What a write/request changes; drives the destructiveHint annotation. */
export type Mutation = 'create' | 'update' | 'delete';

/** Namespaced snake_case, at most 64 characters, valid for MCP, OpenAI and Anthropic tool names. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** A contract version: MAJOR.MINOR.PATCH. */
export const SEMVER_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** The durable operation a write/request execution belongs to, as the handler sees it. */
export interface OperationHandle {
  readonly id: string;
  readonly key: string;
  readonly mode: OperationMode;
  /** Recovery points saved by earlier deliveries of this same operation (multi-step backends resume here). */
  readonly checkpoints: Readonly<Record<string, unknown>>;
  /** Persists a recovery point before the next step; survives a crash of this process. */
  saveCheckpoint(name: string, data: unknown): Promise<void>;
  /** Records an identifier the external system gave us, for reconciliation and support. */
  addExternalRef(system: string, ref: string): Promise<void>;
  /**
   * Runs `work` in one transaction of the gateway's database that also settles this operation with the
   * outcome `work` returns: the domain's write and the operation record commit together or not at all,
   * so no crash can leave one without the other. For state that lives in the gateway's database; inside
   * `work` use only `tx`. The outcome is checked against the contract like any other.
   */
  commit<R>(work: (tx: SqlExecutor) => Promise<ToolOutcome<R>>): Promise<ToolOutcome<R>>;
}

/** What a policy hook is given besides the validated input. */
export interface PolicyHookContext {
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

export interface ToolContext {
  readonly principal: Principal;
  /** Aborted when the tool's timeout elapses or the client cancels. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds at which the tool's timeout elapses; backend calls start no attempt after it. */
  readonly deadline: number;
  readonly correlationId: string;
  /** Present for write/request tools executing (not dry-running) under a reserved key. */
  readonly operation: OperationHandle | null;
  readonly log: Logger;
  /** W3C traceparent of the execution span when tracing is on: pass it to backend calls to continue the trace. */
  readonly traceparent?: string;
  /** The confirmation this execution runs under (see `confirm`); null when none was needed. */
  readonly confirmation: ConfirmationView | null;
  /**
   * Tells the gateway bounded facts about this call (the approval it needs, the exception it went
   * ahead under, what its dependency answered) for its audit entry and span. Throws a
   * CallAnnotationError on an unknown key or a value outside its bounds.
   */
  annotate(facts: CallAnnotations): void;
  /**
   * Exceptions people granted to the module's rules (docs/exceptions.md): `active(kind, target)` lists
   * those in force for exactly that target, granted by someone other than the caller; `use(exception)`
   * re-checks one next to the write and records that the call went ahead under it.
   */
  readonly exceptions: ToolExceptions;
}

/** An exception kind a tool honours, and how its validated input names the target (for its policies). */
export interface HonouredException<I = Record<string, unknown>> {
  readonly exception: ExceptionDefinition;
  /** The target this call would go ahead under; null when the input names none. */
  readonly target: (input: I) => Record<string, unknown> | null;
  /** When the exception must hold (epoch ms), e.g. a scheduled start; absent or null: now. */
  readonly at?: (input: I) => number | null;
}

/** A stored operation as the reconcile hook sees it. */
export interface OperationSnapshot {
  readonly id: string;
  readonly tenant: string;
  readonly subject: string;
  readonly tool: string;
  readonly key: string;
  readonly attempts: number;
  readonly checkpoints: Readonly<Record<string, unknown>>;
  readonly externalRefs: Readonly<Record<string, string>>;
  readonly createdAt: Date;
}

export type ReconcileVerdict<R> =
  | { settled: true; outcome: ToolOutcome<R> }
  /**
   * Still unknown; the reconciler asks again later. `escalate` sends the operation straight to human
   * review, for destinations that offer no status query.
   */
  | { settled: false; note: string; escalate?: true };

/** An operator's decision on an operation whose outcome could not be established automatically. */
export interface ReviewDecisionView {
  readonly resolution: 'completed' | 'rejected';
  readonly note: string;
  /** What the operator found in the owning system (an item id, a record number), when they give one. */
  readonly reference: string | null;
}

export interface ToolExample<I> {
  readonly title: string;
  readonly input: I;
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly kind: ToolKind;
  /** Required for write/request tools. */
  readonly mutation?: Mutation;
  /** External systems the tool reaches (drives openWorldHint). */
  readonly externalSystems?: readonly string[];
  /** Semver of the agent-visible contract; bump the major for breaking changes. */
  readonly version: string;
  /**
   * Who is served this version while another major of the same name is served too (docs/versions.md):
   * principals the rule admits see and call this one, everyone else the version without a rollout.
   */
  readonly rollout?: RolloutRule;
  readonly input: I;
  readonly output: O;
  /** Every code the handler may answer with (gateway codes are added automatically). */
  readonly errors: readonly ErrorCodeSpec[];
  readonly scopes: readonly string[];
  readonly timeoutMs: number;
  readonly examples: readonly ToolExample<z.input<I>>[];
  /**
   * Top-level input fields mirrored into HTTP headers on MCP 2026-07-28 (SEP-2243), field -> header
   * name: the tool's schema marks them `x-mcp-header`, clients send `Mcp-Param-{Name}`, and a balancer
   * or WAF can route or limit by the value without parsing JSON. The gateway refuses a call whose
   * header is missing or disagrees with its argument. Only string, number, integer or boolean fields.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Input fields whose values never reach logs or traces (top-level names). */
  readonly sensitiveFields?: readonly string[];
  /**
   * Input fields recorded in the call's audit entry and span: `environment` names a string enum field
   * (`toolgate.environment`). Anything else is refused at definition.
   */
  readonly telemetry?: ToolTelemetrySpec;
  /** Input has a boolean `dry_run` that selects mode dry_run (never reserves a key). */
  readonly supportsDryRun?: boolean;
  /**
   * Refuse a new key whose request matches a recent completed one by the same principal,
   * unless `confirmField` is true in the input.
   */
  readonly duplicateSuspicion?: {
    readonly windowSeconds: number;
    readonly confirmField: string;
  };
  /**
   * When a person must confirm an execution, what they are asked, and what happens on a client that
   * cannot ask (see docs/confirmations.md). Absent: never. Dry runs never ask.
   */
  readonly confirm?: ConfirmSpec<z.output<I>>;
  /**
   * The request as its idempotency fingerprint sees it: a cosmetic normalization of the parsed input
   * (spacing, capitalisation, "St" written out as "Street") that never changes what the request does.
   * The fingerprint is taken after it, so the same key sent again with a cosmetic variant replays the
   * recorded outcome (and duplicate suspicion sees the variant as the same request), while a material
   * difference (another street number) still answers IDEMPOTENCY_CONFLICT. It shapes only the
   * fingerprint: the handler gets the input as sent. Must be pure and deterministic. Absent: the
   * parsed input as it is.
   */
  readonly normalizeForFingerprint?: (input: z.output<I>) => z.output<I>;
  /**
   * How the tool's own result says it is a replay, for a result that reports it (a `replayed` field):
   * applied to the recorded result when a retry under the same key is answered from the record, so
   * result and envelope agree. Must return a result still valid against `output`. The envelope's
   * `replayed` is set by the gateway either way. Absent: the recorded result as it is.
   */
  readonly markReplay?: (result: z.output<O>) => z.output<O>;
  /** Limits documented in the contract (e.g. "tracker without duplicate protection"). */
  readonly notes?: readonly string[];
  readonly handler: (input: z.output<I>, ctx: ToolContext) => Promise<ToolOutcome<z.output<O>>>;
  /**
   * What the call acts on, as the gateway's policies see it (`resource`), looked up in the caller's
   * tenant only. Null when there is no such resource for this caller: the policies are not asked and
   * the handler answers its own not-found, so another tenant's resource and a missing one look the
   * same. Absent: the resource is `Tool::"<name>"`. Runs only when a policy set is loaded.
   */
  readonly policyResource?: (input: z.output<I>, ctx: PolicyHookContext) => Promise<PolicyEntity | null>;
  /**
   * The exception kinds this tool's rules may be set aside by: listed in the contract, and the ones in
   * force for the call's target (granted by someone other than the caller) are what the policies read
   * as `context.facts.exceptions` (`[{exception_id, kind, granted_by}]`).
   */
  readonly exceptions?: readonly HonouredException<z.output<I>>[];
  /**
   * The approver scope (declared by the tool's module, e.g. `payouts:review`) an operator needs besides
   * `operations:review` to decide this tool's operations in review; absent: `operations:review` alone.
   */
  readonly reviewScope?: string;
  /**
   * Facts the policies read as `context.facts` besides the validated input they read as
   * `context.input`, and besides the exceptions in force. Runs only when a policy set is loaded.
   */
  readonly policyFacts?: (
    input: z.output<I>,
    ctx: PolicyHookContext,
  ) => Promise<Readonly<Record<string, unknown>>>;
  /**
   * Brings the domain's own state in line with an operator's review decision (e.g. reopens a draft
   * whose commit never reached the destination). Runs after the decision is recorded.
   */
  readonly onReviewResolved?: (operation: OperationSnapshot, decision: ReviewDecisionView) => Promise<void>;
  /**
   * Asked before an operator's decision is recorded: `{ refuse: reason }` when the domain could not
   * follow it as given (a reference that names nothing the owning system holds for this operation),
   * and the decision is refused with that reason, nothing recorded; null to let it stand.
   */
  readonly checkReviewDecision?: (
    operation: OperationSnapshot,
    decision: ReviewDecisionView,
  ) => Promise<{ readonly refuse: string } | null>;
  /** Asks the owning system what happened to an operation whose outcome is unknown. */
  readonly reconcile?: (
    operation: OperationSnapshot,
    ctx: { signal: AbortSignal; log: Logger },
  ) => Promise<ReconcileVerdict<z.output<O>>>;
}

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType>
  extends ToolSpec<I, O> {
  readonly namespace: string;
  readonly majorVersion: number;
  readonly annotations: ToolAnnotations;
  /** The call's environment from its validated input, per `telemetry.environment`; null without one. */
  readonly environmentOf: (input: Readonly<Record<string, unknown>>) => string | null;
}

/** A tool definition of any input and output types, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: handler parameter types are erased in the registry
export type AnyToolDefinition = ToolDefinition<z.ZodObject, any>;

/** The codes a client that cannot ask its user may get, by the tool's fallback. */
const fallbackErrors: Record<ConfirmFallback, readonly ErrorCodeSpec[]> = {
  refuse: [confirmationErrors.CONFIRMATION_UNAVAILABLE],
  agent: [confirmationErrors.CONFIRMATION_REQUIRED],
  operator: [confirmationErrors.CONFIRMATION_PENDING, confirmationErrors.CONFIRMATION_EXPIRED],
};

/**
 * Checks a tool contract and derives what must never be hand-written: the namespace, the major
 * version and the MCP annotations. Throws a ToolContractError (a programmer error) naming every rule
 * the contract breaks.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(
  spec: ToolSpec<I, O>,
): ToolDefinition<I, O> {
  const problems: ToolContractProblem[] = [];
  const broken = (rule: string, message: string) => problems.push({ tool: spec.name, rule, message });
  if (spec.name.length > 64 || !TOOL_NAME_PATTERN.test(spec.name)) {
    broken('name', 'name must be namespaced snake_case (namespace_action) of at most 64 characters');
  }
  const semver = SEMVER_PATTERN.exec(spec.version);
  if (!semver) broken('version', `version ${spec.version} is not semver MAJOR.MINOR.PATCH`);
  for (const problem of spec.rollout ? rolloutProblems(spec.rollout) : []) broken('rollout', problem);
  if (spec.title.trim().length === 0) broken('title', 'title is empty');
  if (spec.description.trim().length < 40) broken('description', 'description is missing or too short');
  if (spec.kind !== 'read' && !spec.mutation) broken('mutation', `${spec.kind} tool must declare mutation`);
  if (spec.kind === 'read' && spec.mutation) broken('mutation', 'read tool cannot declare mutation');
  if (spec.kind !== 'read' && !('idempotency_key' in spec.input.shape)) {
    broken('idempotency-key', `${spec.kind} tool must take idempotency_key`);
  }
  if (spec.supportsDryRun && !('dry_run' in spec.input.shape))
    broken('dry-run', 'supportsDryRun needs a dry_run field');
  if (!(spec.timeoutMs > 0 && spec.timeoutMs <= 120_000))
    broken('timeout', 'timeoutMs must be in (0, 120000]');
  if (spec.kind !== 'read' && !spec.reconcile)
    broken('reconcile', `${spec.kind} tool must provide reconcile`);
  const suspicion = spec.duplicateSuspicion;
  if (suspicion && spec.kind === 'read')
    broken('duplicate-suspicion', 'a read tool cannot declare duplicateSuspicion');
  if (suspicion && !(suspicion.confirmField in spec.input.shape)) {
    broken(
      'duplicate-suspicion',
      `duplicateSuspicion.confirmField ${suspicion.confirmField} is not an input field`,
    );
  }
  for (const problem of paramHeaderProblems(spec.headers ?? {}, Object.keys(spec.input.shape))) {
    broken('headers', problem);
  }
  for (const problem of toolTelemetryProblems(spec.telemetry ?? {}, spec.input.shape)) {
    broken('telemetry', problem);
  }
  if (spec.normalizeForFingerprint && spec.kind === 'read') {
    broken('normalize-for-fingerprint', 'a read tool reserves no key, so it has no fingerprint to normalize');
  }
  if (spec.markReplay && spec.kind === 'read') {
    broken('mark-replay', 'a read tool reserves no key, so nothing of it is ever replayed');
  }
  if (spec.reviewScope !== undefined) {
    if (spec.kind === 'read') broken('review-scope', 'a read tool has no operations to review');
    if (!isApproverScope(spec.reviewScope)) {
      broken(
        'review-scope',
        `reviewScope ${spec.reviewScope} must be a scope of the module such as payouts:review`,
      );
    }
  }
  if (
    spec.exceptions &&
    new Set(spec.exceptions.map((e) => e.exception.kind)).size < spec.exceptions.length
  ) {
    broken('exceptions', 'each exception kind is honoured once');
  }
  if (spec.confirm) {
    if (spec.kind === 'read') broken('confirm', 'a read tool changes nothing to confirm');
    for (const problem of confirmSpecProblems(
      spec.confirm as ConfirmSpec<unknown>,
      Object.keys(spec.input.shape),
    ))
      broken('confirm', problem);
  }
  reportContractProblems(problems);
  // Codes the gateway answers for the tool's own declarations are listed in its contract.
  const added: ErrorCodeSpec[] = [];
  if (suspicion) added.push(duplicateErrors.POSSIBLE_DUPLICATE);
  if (spec.confirm) {
    added.push(confirmationErrors.CONFIRMATION_DECLINED, confirmationErrors.CONFIRMATION_MISMATCH);
    added.push(...fallbackErrors[spec.confirm.fallback ?? 'refuse']);
  }
  const errors = [...spec.errors, ...added.filter((a) => !spec.errors.some((e) => e.code === a.code))];

  const externalSystems = spec.externalSystems ?? [];
  return Object.freeze({
    ...spec,
    errors,
    namespace: spec.name.split('_')[0]!,
    majorVersion: semver ? Number(semver[1]) : 0,
    environmentOf: environmentReader(spec.telemetry, spec.input.shape),
    annotations: Object.freeze({
      title: spec.title,
      readOnlyHint: spec.kind === 'read',
      destructiveHint: spec.mutation === 'update' || spec.mutation === 'delete',
      // Reads have no effect; writes and requests are keyed, so a repeat with the same arguments adds none.
      idempotentHint: true,
      openWorldHint: spec.kind === 'request' || externalSystems.length > 0,
    }),
  });
}
