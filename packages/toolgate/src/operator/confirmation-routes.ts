import type { App } from '../app/create-app.ts';
import {
  answerConfirmation,
  confirmationAnswerSchema,
  confirmationQuestionView,
} from './answer-confirmation.ts';
import { mayConfirmOperations, mayReadOperations } from './operator-authority.ts';
import { MAX_PAGE_SIZE } from './operator-query.ts';
import {
  confirmNeed,
  OPERATION_PATH,
  type OperatorPrincipal,
  type OperatorReplies,
  type OperatorRouter,
  zodProblems,
} from './operator-route-context.ts';

/** Calls parked for an approver: the questions waiting, and an approver's answer to one. */
export function confirmationRoutes(routes: OperatorRouter, replies: OperatorReplies): void {
  const { app, reply, refuseScope, badQuery } = replies;
  routes.on('GET', '/operator/v1/confirmations', async ({ res, principal }) => {
    if (!mayConfirmOperations(principal) && !mayReadOperations(principal)) {
      return refuseScope(res, confirmNeed);
    }
    const parked = await app.operations.confirmations.pending(principal.tenant, MAX_PAGE_SIZE);
    const versions = await contractVersions(
      app,
      principal.tenant,
      parked.map((p) => p.operationId),
    );
    return reply(res, 200, {
      confirmations: parked.map((p) => {
        // The version that reserved the operation asked the question, and names its approver scope.
        const version = versions.get(p.operationId);
        const definition = version ? app.registry.get(p.tool, version)?.definition : undefined;
        const mayAnswer =
          p.state === 'pending' &&
          p.requester.subject !== principal.subject &&
          mayConfirmOperations(principal, definition?.confirm?.approverScope);
        return { ...confirmationQuestionView(p), may_answer: mayAnswer };
      }),
    });
  });
  routes.on('POST', `${OPERATION_PATH}/confirmation`, async ({ req, res, principal }, { id }) => {
    if (!mayConfirmOperations(principal)) return refuseScope(res, 'scope operations:confirm');
    if (await replies.refusedByToolScope(res, principal, id!, 'confirmation')) return;
    const body = await replies.jsonBody(req, res);
    if (!body) return;
    const parsed = confirmationAnswerSchema.safeParse(body.json);
    if (!parsed.success) return badQuery(res, zodProblems(parsed.error.issues));
    const answer = await answerConfirmation(app, principal, id!, parsed.data);
    switch (answer.kind) {
      case 'not_found':
        return reply(res, 404, { error: 'not_found' });
      case 'four_eyes':
        return reply(res, 403, {
          error: 'four_eyes',
          message: 'The requester of a call cannot confirm or refuse it; another approver must.',
          requester: answer.requester,
        });
      case 'invalid':
        return badQuery(res, answer.problems);
      case 'not_served':
        return reply(res, 409, {
          error: 'tool_not_served',
          message: `This gateway does not serve ${answer.tool}; answer it on one that does.`,
        });
      case 'not_pending':
        return reply(res, 409, {
          error: 'not_awaiting_confirmation',
          message: `This operation is ${answer.status}; its confirmation was ${answer.confirmation.state}${answer.confirmation.answered_by ? ` by ${answer.confirmation.answered_by}` : ''}.`,
          status: answer.status,
          confirmation: answer.confirmation,
        });
      case 'mismatch':
        return reply(res, 409, {
          error: 'confirmation_mismatch',
          message:
            'The request would no longer do what was shown; nothing ran. A retry of the call asks again.',
          confirmation: answer.confirmation,
          outcome: answer.outcome,
        });
      case 'cannot_check':
        return reply(res, 503, {
          error: 'cannot_check',
          message: `${answer.message} Nothing changed; answer again later.`,
        });
      case 'answered':
        return reply(res, 200, { confirmation: answer.confirmation, outcome: answer.outcome });
    }
  });
}

/** The contract version of each of the tenant's operations named, by id. */
async function contractVersions(
  app: App,
  tenant: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await app.db.query<{ id: string; contract_version: string }>(
    `SELECT id, contract_version FROM operations WHERE tenant = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [tenant, ...ids],
  );
  return new Map(rows.map((r) => [r.id, r.contract_version]));
}

/** The operation parked a question this approver may answer (it holds the tool's approver scope). */
export async function askedOf(
  app: App,
  principal: OperatorPrincipal,
  operationId: string,
  tool: string,
  version: string,
): Promise<boolean> {
  if (!(await app.operations.confirmations.find(principal.tenant, operationId))) return false;
  // The version that reserved the operation asked the question, and names its approver scope.
  const definition = app.registry.get(tool, version)?.definition;
  return mayConfirmOperations(principal, definition?.confirm?.approverScope);
}
