import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../app/create-app.ts';
import type { Principal } from '../auth/principal.ts';
import { confirmationDigest } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import { operatorConfirmationView } from '../gateway/operator-confirmation.ts';
import type { OperationRecord } from '../operations/operation-record.ts';
import type { ParkedConfirmation } from '../operations/operator-confirmations.ts';
import type { QueryProblem } from './operator-query.ts';
import { operatorText } from './operator-text.ts';

export const confirmationAnswerSchema = z.strictObject({
  decision: z.enum(['confirm', 'refuse']),
  choice: operatorText(1, 200).optional(),
  note: operatorText(1, 500, { multiline: true }).optional(),
});
export type ConfirmationAnswer = z.infer<typeof confirmationAnswerSchema>;

/** A parked question as the operator API shows it: exactly what the tool asked, and its answer. */
export interface ConfirmationQuestionView {
  readonly operation_id: string;
  readonly tool: string;
  readonly requester: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
  readonly choice: { title: string; options: { value: string; title: string }[] } | null;
  readonly digest: string;
  readonly state: ParkedConfirmation['state'];
  readonly asked_at: string;
  readonly expires_at: string;
  readonly answered_by: string | null;
  readonly answered_at: string | null;
  readonly chosen: string | null;
  readonly note: string | null;
}

export function confirmationQuestionView(parked: ParkedConfirmation): ConfirmationQuestionView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const { ask } = parked;
  return {
    operation_id: parked.operationId,
    tool: parked.tool,
    requester: parked.requester.subject,
    message: ask.message,
    details: { ...(ask.details ?? {}) },
    choice: ask.choice
      ? { title: ask.choice.title, options: ask.choice.options.map((o) => ({ ...o })) }
      : null,
    digest: parked.digest,
    state: parked.state,
    asked_at: iso(parked.askedAt)!,
    expires_at: iso(parked.expiresAt)!,
    answered_by: parked.answeredBy,
    answered_at: iso(parked.answeredAt),
    chosen: parked.choice,
    note: parked.note,
  };
}

export type AnswerResult =
  | {
      readonly kind: 'answered';
      readonly confirmation: ConfirmationQuestionView;
      /** The operation's outcome: the execution's envelope when confirmed, the rejection when refused. */
      readonly outcome: OutcomeEnvelope;
    }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'four_eyes'; readonly requester: string }
  | { readonly kind: 'invalid'; readonly problems: QueryProblem[] }
  | { readonly kind: 'not_pending'; readonly confirmation: ConfirmationQuestionView; readonly status: string }
  | { readonly kind: 'not_served'; readonly tool: string }
  | {
      readonly kind: 'mismatch';
      readonly confirmation: ConfirmationQuestionView;
      readonly outcome: OutcomeEnvelope;
    }
  | { readonly kind: 'cannot_check'; readonly message: string };

/**
 * An approver's answer to a question parked for them. Four eyes: the requester cannot answer their
 * own call. Confirmed, the call runs once, as the requester's call, under `ctx.confirmation` with
 * `via: operator`, and settles as any execution does; refused, it settles `rejected` /
 * CONFIRMATION_DECLINED. Two approvers answering at once: one claim wins, the other is `not_pending`.
 * Every refusal of the answer itself changes nothing.
 */
export async function answerConfirmation(
  app: App,
  approver: Principal,
  operationId: string,
  answer: ConfirmationAnswer,
): Promise<AnswerResult> {
  const { confirmations, store, durable } = app.operations;
  const parked = await confirmations.find(approver.tenant, operationId);
  const found = parked ? await store.findById(operationId) : null;
  if (!parked || !found) return { kind: 'not_found' };
  if (parked.requester.subject === approver.subject) {
    return { kind: 'four_eyes', requester: parked.requester.subject };
  }
  const record = await confirmations.expireIfDue(found);
  const notPending = async (): Promise<AnswerResult> => {
    const now = await confirmations.find(approver.tenant, operationId);
    const current = await store.findById(operationId);
    return {
      kind: 'not_pending',
      confirmation: confirmationQuestionView(now ?? parked),
      status: current?.status ?? record.status,
    };
  };
  if (record.status !== 'awaiting_confirmation' || parked.state !== 'pending') return notPending();
  const by = { approver, note: answer.note ?? null };
  if (answer.decision === 'refuse') {
    if (!(await confirmations.decline(record, by))) return notPending();
    return answered(app, approver.tenant, operationId);
  }
  const tool = app.registry.get(parked.tool, record.contractVersion);
  if (!tool) return { kind: 'not_served', tool: parked.tool };
  const problems = choiceProblems(parked, answer.choice);
  if (problems.length > 0) return { kind: 'invalid', problems };
  // What the approver saw must still be what the request would do, as for a client's answer.
  const again = await askAgain(tool, parked);
  if (again.kind === 'cannot_check') return again;
  if (again.kind === 'changed') {
    if (!(await confirmations.mismatch(record, by))) return notPending();
    const now = await confirmations.find(approver.tenant, operationId);
    const settled = await store.findById(operationId);
    return { kind: 'mismatch', confirmation: confirmationQuestionView(now!), outcome: settled!.envelope! };
  }
  const choice = answer.choice ?? null;
  const key = String(parked.args.idempotency_key ?? record.key);
  const confirmation = operatorConfirmationView(parked.tool, parked.args, parked.ask, choice);
  const correlationId = randomUUID();
  const admission = await durable.claimParked({ tool, key, correlationId }, (run) =>
    confirmations.claim(operationId, choice, by, run, (claimed) =>
      acceptedEntry(claimed, approver, confirmation.digest, answer.note ?? null),
    ),
  );
  if (!admission) return notPending();
  const outcome = await app.gateway.executeConfirmed(
    {
      tool,
      principal: parked.requester,
      args: parked.args,
      key,
      correlationId,
      confirmation,
      answeredBy: approver.subject,
    },
    admission,
  );
  const now = await confirmations.find(approver.tenant, operationId);
  return { kind: 'answered', confirmation: confirmationQuestionView(now!), outcome };
}

/**
 * The tool's question asked again, as the requester, before the confirmed call runs: `changed` when
 * it no longer comes out as it was shown (other facts, or no confirmation needed now), `cannot_check`
 * when the domain cannot say (its refusal, an error, no answer in the tool's time).
 */
async function askAgain(
  tool: RegisteredTool,
  parked: ParkedConfirmation,
): Promise<
  { readonly kind: 'same' | 'changed' } | { readonly kind: 'cannot_check'; readonly message: string }
> {
  const spec = tool.definition.confirm;
  if (!spec) return { kind: 'changed' };
  try {
    const asked = await spec.ask(parked.args, {
      principal: parked.requester,
      signal: AbortSignal.timeout(tool.definition.timeoutMs),
      correlationId: randomUUID(),
    });
    if (asked !== null && 'refuse' in asked) {
      return {
        kind: 'cannot_check',
        message: asked.refuse.message ?? 'The tool cannot check the request now.',
      };
    }
    const same =
      asked !== null && confirmationDigest(parked.tool, parked.args, asked, null) === parked.digest;
    return { kind: same ? 'same' : 'changed' };
  } catch {
    return { kind: 'cannot_check', message: 'The tool could not check the request now; nothing changed.' };
  }
}

async function answered(app: App, tenant: string, operationId: string): Promise<AnswerResult> {
  const now = await app.operations.confirmations.find(tenant, operationId);
  const record = await app.operations.store.findById(operationId);
  return { kind: 'answered', confirmation: confirmationQuestionView(now!), outcome: record!.envelope! };
}

/** A choice is required exactly when the question offers one, and must be one of its options. */
function choiceProblems(parked: ParkedConfirmation, choice: string | undefined): QueryProblem[] {
  const offered = parked.ask.choice?.options ?? [];
  if (offered.length === 0) {
    return choice === undefined ? [] : [{ parameter: 'choice', message: 'this question offers no choice' }];
  }
  if (choice !== undefined && offered.some((o) => o.value === choice)) return [];
  return [
    {
      parameter: 'choice',
      message: `must be one of ${offered.map((o) => o.value).join(', ')} (${parked.ask.choice!.title})`,
    },
  ];
}

/** The approver's yes in the audit trail, committed with the claim that lets the call run. */
function acceptedEntry(record: OperationRecord, approver: Principal, digest: string, note: string | null) {
  return {
    at: new Date(record.updatedAt).toISOString(),
    correlationId: record.correlationId,
    tenant: record.tenant,
    subject: approver.subject,
    actor: approver.actor,
    action: 'operations_confirmation_answer',
    status: 'in_progress',
    code: null,
    operationId: record.id,
    replayed: false,
    tool: record.tool,
    contractVersion: record.contractVersion,
    detail: {
      owner: record.subject,
      confirmation: { via: 'operator', outcome: 'accepted', digest, answered_by: approver.subject },
      ...(note ? { note } : {}),
    },
  };
}
