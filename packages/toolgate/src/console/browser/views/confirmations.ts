/** The calls parked for an approver's yes, with the question each asks. */
import { el, empty, heading, table } from '../dom.ts';
import { utcCell } from '../format.ts';
import { operationLink } from '../operation-table.ts';
import { call, type OperatorAnswers } from '../operator-api.ts';

export async function showConfirmations(view: HTMLElement) {
  const [{ status, data }, who] = await Promise.all([
    call<OperatorAnswers['confirmations']>('GET', '/operator/v1/confirmations'),
    call<OperatorAnswers['me']>('GET', '/operator/v1/me'),
  ]);
  const me = who.status === 200 ? who.data.subject : null;
  if (status !== 200) {
    view.append(
      ...heading('Confirmations'),
      el('p', { text: `This token may not see confirmations (${status}).` }),
    );
    return;
  }
  view.append(
    ...heading(
      `Confirmations awaiting an approver (${data.confirmations.length})`,
      'Calls a tool parked until an approver other than the requester confirms or refuses them.',
    ),
  );
  if (data.confirmations.length === 0) {
    view.append(
      empty(
        'No call waits for an approver. Calls of tools that ask an approver (the operator confirmation fallback) appear here until they are answered or expire.',
      ),
    );
    return;
  }
  view.append(
    table(
      'Confirmations awaiting an approver',
      [
        { label: 'Operation', width: 'id' },
        { label: 'Tool', width: 'tool' },
        { label: 'Requested by', width: 'who' },
        { label: 'Question' },
        { label: 'Asked (UTC)', width: 'time' },
        { label: 'Expires (UTC)', width: 'time' },
        { label: 'For you', width: 'who' },
      ],
      data.confirmations.map((c) => [
        operationLink(c.operation_id, `Open ${c.operation_id}`),
        c.tool,
        c.requester,
        c.message,
        utcCell(c.asked_at),
        utcCell(c.expires_at),
        c.may_answer ? 'You may answer' : c.requester === me ? 'Your own request' : 'Needs an approver scope',
      ]),
    ),
  );
}
