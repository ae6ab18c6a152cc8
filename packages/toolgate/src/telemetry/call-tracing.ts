import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { CallAnnotations } from './call-annotations.ts';

const propagator = new W3CTraceContextPropagator();
type Carrier = Record<string, string>;
const getter: TextMapGetter<Carrier> = { get: (c, k) => c[k], keys: (c) => Object.keys(c) };
const setter: TextMapSetter<Carrier> = {
  set: (c, k, v) => {
    c[k] = v;
  },
};

/** What a finished call tells its span: bounded values only, never arguments, addresses or tokens. */
export interface CallSpanFacts {
  readonly tool: string;
  readonly contractVersion: string;
  readonly status: string;
  readonly code: string | null;
  readonly replayed: boolean;
  readonly operationId: string | null;
  readonly tenant: string | null;
  /** How a person's confirmation went (`via:outcome`, e.g. `client:accepted`), when the tool asked. */
  readonly confirmation?: string | null;
  /** The version of the policy set the call ran under, and the policy that denied it, when one did. */
  readonly policyVersion?: string | null;
  readonly policyDenied?: string | null;
  /** Whether the same request may succeed later (the envelope's `retryable`). */
  readonly retryable?: boolean;
  /** The client application: the token's (`azp` / `client_id`), else the MCP client's name. */
  readonly application?: string | null;
  /** The value of the tool's declared environment field (a string enum). */
  readonly environment?: string | null;
  /** The bounded facts the handler and its backend clients told (`ctx.annotate`). */
  readonly annotations?: CallAnnotations;
}

/** The span of one tool call; a no-op when tracing is off. */
export interface CallTrace {
  /** The trace id, for the audit entry; null when tracing is off. */
  readonly traceId: string | null;
  /** Runs one pipeline step under a child span; `work` gets the child's traceparent for outgoing calls. */
  step<T>(name: string, work: (traceparent: string | undefined) => Promise<T>): Promise<T>;
  end(facts: CallSpanFacts): void;
  fail(error: unknown): void;
}

const NO_TRACE: CallTrace = {
  traceId: null,
  step: (_name, work) => work(undefined),
  end: () => undefined,
  fail: () => undefined,
};

function traceparentOf(span: Span): string | undefined {
  const carrier: Carrier = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, setter);
  return carrier.traceparent;
}

function failSpan(span: Span, error: unknown): void {
  // The exception's class only: messages may quote arguments.
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}

/**
 * Spans for tool calls and reconciler attempts, parented explicitly (no global context manager), so
 * several gateways in one process keep their traces apart. Off, every method is a constant no-op.
 */
export class GatewayTracing {
  static readonly off = new GatewayTracing(null);

  constructor(private readonly tracer: Tracer | null) {}

  get enabled(): boolean {
    return this.tracer !== null;
  }

  /** Starts the span of one tools/call, continuing the caller's W3C `traceparent` when it sent one. */
  startCall(traceparent: string | undefined): CallTrace {
    const tracer = this.tracer;
    if (!tracer) return NO_TRACE;
    const parent: Context =
      traceparent === undefined ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
    const span = tracer.startSpan(
      'tools/call',
      { kind: SpanKind.SERVER, attributes: { 'mcp.method.name': 'tools/call' } },
      parent,
    );
    const parentContext = trace.setSpan(ROOT_CONTEXT, span);
    return {
      traceId: span.spanContext().traceId,
      async step(name, work) {
        const child = tracer.startSpan(name, { kind: SpanKind.INTERNAL }, parentContext);
        try {
          return await work(traceparentOf(child));
        } catch (error) {
          failSpan(child, error);
          throw error;
        } finally {
          child.end();
        }
      },
      end(facts) {
        span.updateName(`tools/call ${facts.tool}`);
        span.setAttributes(callAttributes(facts));
        if (facts.status === 'failed' && facts.code === 'INTERNAL_ERROR') {
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'INTERNAL_ERROR' });
        }
        span.end();
      },
      fail(error) {
        failSpan(span, error);
        span.end();
      },
    };
  }

  /** One reconciler attempt as a root span; `work` answers the attributes of what it found. */
  async reconcileAttempt<T>(
    base: Attributes,
    work: () => Promise<{ value: T; attributes: Attributes }>,
  ): Promise<T> {
    const tracer = this.tracer;
    if (!tracer) return (await work()).value;
    const span = tracer.startSpan('toolgate.reconcile', { kind: SpanKind.INTERNAL, attributes: base });
    try {
      const { value, attributes } = await work();
      span.setAttributes(attributes);
      return value;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  }
}

function callAttributes(facts: CallSpanFacts): Attributes {
  return {
    'gen_ai.tool.name': facts.tool,
    'toolgate.tool': facts.tool,
    'toolgate.contract_version': facts.contractVersion,
    'toolgate.status': facts.status,
    'toolgate.replayed': facts.replayed,
    ...(facts.code ? { 'toolgate.code': facts.code } : {}),
    ...(facts.operationId ? { 'toolgate.operation_id': facts.operationId } : {}),
    ...(facts.tenant ? { 'toolgate.tenant': facts.tenant } : {}),
    ...(facts.confirmation ? { 'toolgate.confirmation': facts.confirmation } : {}),
    ...(facts.policyVersion ? { 'toolgate.policy_version': facts.policyVersion } : {}),
    ...(facts.policyDenied ? { 'toolgate.policy_denied_by': facts.policyDenied } : {}),
    ...(facts.retryable === undefined ? {} : { 'toolgate.retryable': facts.retryable }),
    ...(facts.application ? { 'toolgate.application': facts.application } : {}),
    ...(facts.environment ? { 'toolgate.environment': facts.environment } : {}),
    ...annotationAttributes(facts.annotations),
  };
}

function annotationAttributes(annotations: CallAnnotations | undefined): Attributes {
  if (!annotations) return {};
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(annotations)) {
    if (value !== undefined) attributes[`toolgate.${key}`] = value;
  }
  return attributes;
}
