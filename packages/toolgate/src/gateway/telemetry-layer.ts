import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { AuditEntry, AuditSink } from '../telemetry/audit.ts';
import { redactArguments } from '../telemetry/logger.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { CallState } from './call-state.ts';

/**
 * The telemetry layer: every call is counted with bounded labels (tool, contract version, status,
 * code), logged at debug level without argument values (the durable audit, not the log, is the record;
 * debug argument logs redact the fields a tool marks sensitive), and audited when it was a write, a
 * request or a refusal of authority. Answers once the audit entry is stored, so an
 * answered write always has its durable audit record (an executed operation's entry is written with
 * its settlement, see callAuditEntry).
 */
export async function recordCall(
  deps: { readonly metrics: GatewayMetrics; readonly audit: AuditSink },
  log: Logger,
  call: CallState,
  envelope: OutcomeEnvelope,
): Promise<void> {
  const { tool, principal } = call;
  const { name, version } = tool.definition;
  const seconds = (performance.now() - call.startedAt) / 1000;
  const { metrics } = deps;
  metrics.calls.inc({ tool: name, contract_version: version, status: envelope.status });
  metrics.duration.observe({ tool: name, contract_version: version, status: envelope.status }, seconds);
  if (envelope.code) metrics.errors.inc({ tool: name, contract_version: version, code: envelope.code });
  if (envelope.replayed) metrics.replays.inc({ tool: name, contract_version: version });
  if (envelope.code === 'RATE_LIMITED') metrics.rateLimited.inc({ tool: name, actor: principal.actor });
  if (call.confirmation) {
    metrics.confirmations.inc({ tool: name, via: call.confirmation.via, outcome: call.confirmation.outcome });
  }
  log.debug(
    {
      corr: call.correlationId,
      tool: name,
      version,
      tenant: principal.tenant,
      sub: principal.subject,
      status: envelope.status,
      code: envelope.code,
      op: envelope.operation_id,
      replayed: envelope.replayed,
      ms: Math.round(seconds * 1e4) / 10,
    },
    'tool call',
  );
  if (log.isLevelEnabled('debug')) {
    log.debug(
      { corr: call.correlationId, args: redactArguments(call.args, tool.definition.sensitiveFields) },
      'tool arguments',
    );
  }
  // An entry written with the operation's settlement is not written again.
  const entry = call.auditedWithOutcome ? null : callAuditEntry(call, envelope);
  if (entry) await deps.audit.record(entry);
}

/**
 * The audit entry of a call: every write or request, and every refusal of authority; null for other
 * reads. Who (from the token), what tool and version, the outcome; never argument values.
 */
export function callAuditEntry(call: CallState, envelope: OutcomeEnvelope): AuditEntry | null {
  const { tool, principal } = call;
  if (tool.definition.kind === 'read' && envelope.code !== 'FORBIDDEN' && envelope.code !== 'POLICY_DENIED')
    return null;
  return {
    at: new Date().toISOString(),
    correlationId: call.correlationId,
    tenant: principal.tenant,
    subject: principal.subject,
    actor: principal.actor,
    action: tool.definition.name,
    status: envelope.status,
    code: envelope.code,
    operationId: envelope.operation_id,
    replayed: envelope.replayed,
    tool: tool.definition.name,
    contractVersion: tool.definition.version,
    traceId: call.trace.traceId,
    detail: {
      mode: call.mode,
      ...(call.confirmation
        ? { confirmation: confirmationDetail(call.confirmation, principal.subject) }
        : {}),
      ...(call.policy ? { policy_version: call.policy.version } : {}),
      ...(call.policy?.deniedBy ? { policy_denied_by: call.policy.deniedBy } : {}),
      retryable: envelope.retryable,
      ...(call.application ? { application: call.application } : {}),
      ...(call.environment ? { environment: call.environment } : {}),
      ...call.annotations.values,
    },
  };
}

const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
/** Longest client name recorded; a longer one is cut there. */
export const CLIENT_NAME_MAX = 64;
// Control characters (C0, DEL, C1), and the line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * The application a call comes from: the token's (`azp` / `client_id`), else the name the MCP client
 * gives: in the request's 2026-07-28 `_meta` client info, else in the `initialize` of the connection the
 * call came over (stdio). Cut to CLIENT_NAME_MAX characters; a name with control characters, or empty,
 * is not recorded. The client's name is its own claim, not verified.
 */
export function applicationOf(
  principal: Principal,
  meta: Readonly<Record<string, unknown>> | undefined,
  sessionClientName?: string,
): string | null {
  if (principal.application) return principal.application;
  const info = meta?.[CLIENT_INFO];
  const named = typeof info === 'object' && info !== null ? (info as { name?: unknown }).name : undefined;
  return boundedClientName(named ?? sessionClientName);
}

function boundedClientName(name: unknown): string | null {
  if (typeof name !== 'string' || CONTROL.test(name)) return null;
  const trimmed = [...name.trim()].slice(0, CLIENT_NAME_MAX).join('');
  return trimmed.length > 0 ? trimmed : null;
}

const ANSWERED: ReadonlySet<string> = new Set(['accepted', 'declined', 'cancelled']);

/**
 * A confirmation in the audit trail: how it was asked (client elicitation, relayed by the agent, or an
 * approver in the operator console), how it ended, the digest of what was shown, and who answered (the
 * caller's own user: the principal the token names, relayed answers being the agent's word for it; or
 * the approver).
 */
function confirmationDetail(record: NonNullable<CallState['confirmation']>, subject: string) {
  const { answeredBy, ...rest } = record;
  return ANSWERED.has(record.outcome) ? { ...rest, answered_by: answeredBy ?? subject } : rest;
}
