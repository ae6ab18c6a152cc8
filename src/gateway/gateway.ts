import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { FieldError, OutcomeEnvelope } from '../contract/envelope.ts';
import { requestFingerprint } from '../contract/fingerprint.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';
import type { AuditSink } from '../telemetry/audit.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import { missingScopes } from './authorization-layer.ts';
import type { CallState } from './call-state.ts';
import { buildEnvelope, storeUnavailable } from './envelope-builder.ts';
import { executeWithTimeout } from './execution-layer.ts';
import { envelopeForExecution } from './execution-outcome.ts';
import type { Admission, IdempotencyLayer } from './idempotency-layer.ts';
import { requirePrincipal } from './identity-layer.ts';
import { validateInput } from './input-layer.ts';
import { requireArgumentsObject, resolveTool } from './protocol-layer.ts';
import { recordCall } from './telemetry-layer.ts';

export interface GatewayDeps {
  readonly registry: ToolRegistry;
  readonly idempotency: IdempotencyLayer;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly audit: AuditSink;
}

export interface ToolCallRequest {
  readonly name: string;
  readonly arguments?: unknown;
  readonly _meta?: Record<string, unknown>;
}

/**
 * The enforcement pipeline of DESIGN.md section 2, composed in one place. Each numbered step is one
 * module; the order is the contract, except that the scope check runs before input validation so that
 * a caller without the tool's scopes learns nothing about its input schema. Protocol errors throw McpError (JSON-RPC errors); everything
 * after that answers with the outcome envelope.
 */
export class Gateway {
  readonly #deps: GatewayDeps;
  readonly #log: Logger;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    this.#log = deps.logger.child({ channel: 'gateway' });
  }

  get registry(): ToolRegistry {
    return this.#deps.registry;
  }

  /** The tools this principal may call (every tool when the transport knows no principal). */
  listTools(principal: Principal | null): Record<string, unknown>[] {
    return principal ? this.#deps.registry.listingFor(principal.scopes) : this.#deps.registry.listing();
  }

  /** One tools/call, as MCP `CallToolResult`: the envelope as structuredContent and as JSON text. */
  async callTool(
    request: ToolCallRequest,
    principal: Principal | null,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const envelope = await this.callToolEnvelope(request, principal, signal);
    const text = JSON.stringify(envelope);
    this.#deps.metrics.resultBytes.observe(
      { tool: envelope.tool, contract_version: envelope.contract_version },
      Buffer.byteLength(text),
    );
    return {
      content: [{ type: 'text', text }],
      structuredContent: envelope,
      isError: envelope.status === 'failed',
    };
  }

  async callToolEnvelope(
    request: ToolCallRequest,
    principal: Principal | null,
    signal?: AbortSignal,
  ): Promise<OutcomeEnvelope> {
    // 1. Protocol: unknown tool or non-object arguments are JSON-RPC errors.
    const tool = resolveTool(this.#deps.registry, request.name, principal);
    const rawArgs = requireArgumentsObject(request.arguments);
    // 2. Identity: verified by the transport; refuse if absent.
    const who = requirePrincipal(principal);
    const call: CallState = {
      tool,
      principal: who,
      correlationId: randomUUID(),
      startedAt: performance.now(),
      args: rawArgs,
      mode: 'execute',
      key: null,
    };
    // 3. Authorization: the tool's scopes against the principal, before anything about the input schema
    // is echoed to a caller who may not use the tool at all.
    const missing = missingScopes(tool, who);
    if (missing.length > 0) {
      return this.#finish(
        call,
        buildEnvelope(tool, {
          status: 'failed',
          code: 'FORBIDDEN',
          message: `This caller is not allowed to use ${tool.definition.name}.`,
          resolution: `Requires scope(s): ${missing.join(', ')}. Ask someone who holds them; do not retry.`,
        }),
      );
    }
    // 4. Input schema: closed objects, one field error per problem.
    const input = validateInput(tool, rawArgs, request._meta);
    if (!input.ok) {
      return this.#finish(call, this.#invalidArguments(tool, input.fieldErrors));
    }
    call.args = input.args;
    call.key = input.key;
    call.mode = tool.definition.supportsDryRun && input.args.dry_run === true ? 'dry_run' : 'execute';
    try {
      return await this.#admitAndExecute(call, signal);
    } catch (error) {
      // Reached only when a layer itself failed before the handler ran: nothing was executed.
      this.#log.error(
        { corr: call.correlationId, tool: tool.definition.name, err: error },
        'pipeline failure',
      );
      if (isStoreUnavailable(error)) return this.#finish(call, storeUnavailable(tool, call, false));
      return this.#finish(
        call,
        buildEnvelope(tool, {
          status: 'failed',
          code: 'INTERNAL_ERROR',
          message: `An unexpected error occurred before execution (correlation id ${call.correlationId}); nothing was changed.`,
        }),
      );
    }
  }

  async #admitAndExecute(call: CallState, signal: AbortSignal | undefined): Promise<OutcomeEnvelope> {
    const { tool, principal: who } = call;
    // 5. Idempotency: writes and requests executing for real reserve their key; dry runs never do.
    let admission: Admission | null = null;
    if (tool.definition.kind !== 'read' && call.mode === 'execute' && call.key !== null) {
      admission = await this.#deps.idempotency.admit(
        {
          tool,
          principal: who,
          key: call.key,
          fingerprint: requestFingerprint({
            tool: tool.definition.name,
            contractMajor: tool.definition.majorVersion,
            mode: call.mode,
            args: call.args,
          }),
          args: call.args,
          correlationId: call.correlationId,
        },
        signal ?? new AbortController().signal,
      );
      if (admission.kind === 'answer') return this.#finish(call, admission.envelope);
    }
    const operation = admission?.operation ?? null;
    // 6-7. Domain execution under the tool's timeout, with an AbortSignal.
    const execution = await executeWithTimeout(
      tool,
      call.args,
      {
        principal: who,
        correlationId: call.correlationId,
        operation,
        log: this.#log.child({ corr: call.correlationId }),
      },
      signal,
    );
    // 8. Output validation, then the envelope.
    const envelope = envelopeForExecution(call, execution, operation?.id ?? null, this.#log);
    if (admission) await this.#settle(call, admission, envelope);
    // 9. Telemetry and audit.
    return this.#finish(call, envelope);
  }

  #invalidArguments(tool: RegisteredTool, fieldErrors: FieldError[]): OutcomeEnvelope {
    return buildEnvelope(tool, {
      status: 'failed',
      code: 'INVALID_ARGUMENT',
      message: `The arguments do not match the input schema of ${tool.definition.name}; field_errors says what is wrong with each field.`,
      resolution: 'Fix the fields listed in field_errors and call again; nothing was executed.',
      field_errors: fieldErrors,
    });
  }

  /**
   * Stores the outcome for later deliveries. If that fails the caller still gets the outcome; the record
   * stays in progress until its lease expires and the reconciler settles it from the owning system.
   */
  async #settle(call: CallState, admission: Admission & { kind: 'execute' }, envelope: OutcomeEnvelope) {
    try {
      await admission.settle(envelope);
    } catch (error) {
      this.#log.error(
        { corr: call.correlationId, tool: call.tool.definition.name, op: admission.operation.id, err: error },
        'could not store the outcome; the reconciler will settle the operation',
      );
    }
  }

  #finish(call: CallState, envelope: OutcomeEnvelope): OutcomeEnvelope {
    recordCall(this.#deps, this.#log, call, envelope);
    return envelope;
  }
}
