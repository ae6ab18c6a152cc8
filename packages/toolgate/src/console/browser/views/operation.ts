/**
 * One operation's page: its facts and request as labelled fields, Resolve when it waits for a review,
 * its parked question, the timeline from the audit trail (each entry's detail as labelled fields) and,
 * where a review applies, the review decisions.
 */
import { badge, el, empty, fields, table } from '../dom.ts';
import { detailFields, requestFields, utc, utcCell, valueText, withheldFields } from '../format.ts';
import { call, type OperatorAnswers } from '../operator-api.ts';
import { openResolve } from '../resolve-dialog.ts';
import { confirmationSection } from './confirmation-section.ts';

const REVIEWABLE = new Set(['needs_review', 'outcome_unknown']);

export async function showOperation(view: HTMLElement, id: string) {
  const { status, data } = await call<OperatorAnswers['operation']>(
    'GET',
    `/operator/v1/operations/${encodeURIComponent(id)}`,
  );
  if (status !== 200) {
    view.append(
      el('h2', { text: 'Operation' }),
      el('p', { text: status === 404 ? 'No such operation in your tenant.' : `Not allowed (${status}).` }),
    );
    return;
  }
  const o = data.operation;
  const reviewable = REVIEWABLE.has(o.status);
  const request = requestFields(o.request);
  const withheld = withheldFields(o.request);
  const refs = Object.entries(o.external_refs ?? {});
  view.append(
    el(
      'h2',
      { class: 'operation-title' },
      el('span', { class: 'kicker', text: 'Operation ' }),
      el('span', { class: 'mono', text: o.operation_id }),
    ),
    el('p', { class: 'lead' }, badge(o.status), ` ${o.tool} ${o.contract_version}, called by ${o.caller}`),
  );
  if (reviewable) {
    view.append(
      el(
        'div',
        { class: 'actions' },
        el('button', { type: 'button', class: 'primary', text: 'Resolve', onclick: () => openResolve(o) }),
      ),
    );
  }
  const facts = fields([
    ['Code', o.code ?? 'none'],
    ['Message', o.message ?? 'none'],
    ['Created', utc(o.created_at, true)],
    ['Updated', utc(o.updated_at, true)],
    ['Deliveries', o.delivery_attempts],
    ['Reconcile attempts', o.reconcile_attempts],
    ['Last finding', o.last_finding ?? 'none'],
    ['Next check', o.next_check_at ? utc(o.next_check_at, true) : 'none'],
  ]);
  const requested = el(
    'section',
    { class: 'panel', 'aria-labelledby': 'request-title' },
    el('h3', { id: 'request-title', text: 'Request' }),
    request.length === 0 ? empty('The call recorded no scalar field to show.') : fields(request),
    withheld.length > 0
      ? el('p', { class: 'muted', text: `Withheld (not shown): ${withheld.join(', ')}` })
      : null,
    refs.length > 0 ? fields(refs.map(([k, v]) => [`External ${k}`, valueText(v)])) : null,
  );
  view.append(
    el(
      'div',
      { class: 'columns' },
      el(
        'section',
        { class: 'panel', 'aria-labelledby': 'facts-title' },
        el('h3', { id: 'facts-title', text: 'Outcome' }),
        facts,
      ),
      requested,
    ),
  );
  if (data.confirmation) view.append(confirmationSection(data.confirmation));
  view.append(el('h3', { text: 'Timeline (audit)' }));
  view.append(
    data.audit.length === 0
      ? empty('No audit entry is kept for this operation (entries older than the retention are deleted).')
      : table(
          'Timeline (audit)',
          [
            { label: 'At (UTC)', width: 'stamp' },
            { label: 'Action', width: 'tool' },
            { label: 'Who', width: 'tool', wrap: true },
            { label: 'Status', width: 'state' },
            { label: 'Details', wrap: true },
          ],
          data.audit.map((a) => {
            const details = detailFields(a.detail);
            if (a.replayed) details.unshift(['Replayed', 'yes']);
            if (a.code) details.unshift(['Code', a.code]);
            return [
              utcCell(a.at, true),
              a.action,
              `${a.subject} (${a.actor})`,
              badge(a.status),
              details.length === 0 ? '' : fields(details, 'fields compact'),
            ];
          }),
        ),
  );
  if (data.reviews.length > 0 || reviewable) {
    view.append(el('h3', { text: 'Review decisions' }));
    view.append(
      data.reviews.length === 0
        ? empty(
            'No decision yet. Once an operator resolves this operation, the decision and its note appear here.',
          )
        : table(
            'Review decisions',
            [
              { label: 'At (UTC)', width: 'stamp' },
              { label: 'Operator', width: 'who' },
              { label: 'Before', width: 'state' },
              { label: 'Decision', width: 'state' },
              { label: 'Note', wrap: true },
            ],
            data.reviews.map((r) => [
              utcCell(r.at, true),
              r.operator,
              r.previous_status,
              r.resolution,
              r.note,
            ]),
          ),
    );
  }
}
