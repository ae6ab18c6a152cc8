/** The review queue: operations whose outcome no machine could learn, each with Resolve; then the activity charts. */
import { activitySection } from '../charts.ts';
import { el, empty, heading } from '../dom.ts';
import { operationTable } from '../operation-table.ts';
import { call, type OperatorAnswers } from '../operator-api.ts';

export async function showQueue(view: HTMLElement) {
  const parts = await Promise.all(
    ['needs_review', 'outcome_unknown'].map((s) =>
      call<OperatorAnswers['operations']>('GET', `/operator/v1/operations?status=${s}&limit=200`),
    ),
  );
  if (parts.some((p) => p.status === 403)) {
    view.append(...heading('Review queue'), el('p', { text: 'This token may not read operations.' }));
    return;
  }
  const operations = parts.flatMap((p) => p.data.operations);
  view.append(
    ...heading(
      `Review queue (${operations.length})`,
      'Operations whose outcome the gateway could not learn: check each in the owning system, then record what happened.',
    ),
  );
  view.append(
    operations.length === 0
      ? empty(
          'No operation waits for a review decision. Operations the reconciler hands to people (needs_review) and those whose outcome is unknown appear here.',
        )
      : operationTable('Review queue', operations, true),
  );
  view.append(await activitySection(call, el));
}
