/** The tenant's audit trail, filtered by who acted and since when (UTC), each entry's detail as labelled fields. */
import { badge, control, el, empty, fields, heading, table } from '../dom.ts';
import { detailFields, parseUtcInput, utcCell } from '../format.ts';
import { operationLink } from '../operation-table.ts';
import { call, type OperatorAnswers } from '../operator-api.ts';
import { utcField } from '../utc-field.ts';

export async function showAudit(view: HTMLElement, params: URLSearchParams) {
  const form = el(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the audit trail', novalidate: '' },
    el(
      'div',
      { class: 'field' },
      el('label', { for: 'audit-subject', text: 'Who (subject)' }),
      el('input', {
        id: 'audit-subject',
        name: 'subject',
        autocomplete: 'off',
        spellcheck: 'false',
        value: params.get('subject') ?? '',
      }),
    ),
    el(
      'div',
      { class: 'field' },
      ...utcField('audit-since', 'since', 'Since', { value: params.get('since') ?? '' }),
    ),
    el('div', { class: 'field' }, el('button', { type: 'submit', class: 'primary', text: 'Filter' })),
    el('p', { id: 'audit-error', class: 'error', role: 'alert' }),
  ) as HTMLFormElement;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    const subject = control(form, 'subject')!.value.trim();
    if (subject) next.set('subject', subject);
    const since = parseUtcInput(control(form, 'since')!.value);
    if (since === null) {
      form.querySelector('#audit-error')!.textContent = 'Since: type a UTC time as YYYY-MM-DD HH:MM.';
      return;
    }
    if (since) next.set('since', since);
    location.hash = `audit?${next}`;
  });
  view.append(
    ...heading(
      'Audit trail',
      'Who did what in your tenant, oldest first: calls, reconciliation, decisions, answers, exceptions.',
    ),
    form,
  );
  const { status, data } = await call<OperatorAnswers['audit']>('GET', `/operator/v1/audit?${params}`);
  if (status !== 200) {
    view.append(el('p', { text: data.message ?? `Could not read the audit trail (${status}).` }));
    return;
  }
  view.append(
    data.entries.length === 0
      ? empty(
          params.size > 0
            ? 'No audit entry matches these filters.'
            : 'No audit entry yet. Every write or request call, every refusal and every operator decision is recorded here.',
        )
      : table(
          'Audit trail',
          [
            { label: 'At (UTC)', width: 'stamp' },
            { label: 'Action', width: 'tool' },
            { label: 'Who', width: 'who' },
            { label: 'Operation', width: 'id' },
            { label: 'Status', width: 'state' },
            { label: 'Details', wrap: true },
          ],
          data.entries.map((a) => {
            const details = detailFields(a.detail);
            if (a.tool) details.unshift(['Tool', `${a.tool} ${a.contract_version ?? ''}`.trim()]);
            if (a.code) details.unshift(['Code', a.code]);
            if (a.replayed) details.unshift(['Replayed', 'yes']);
            return [
              utcCell(a.at, true),
              a.action,
              el('span', { title: `${a.subject} (${a.actor})`, text: a.subject }),
              a.operation_id ? operationLink(a.operation_id) : '',
              badge(a.status),
              details.length === 0 ? '' : fields(details, 'fields compact'),
            ];
          }),
        ),
  );
  if (data.next_cursor) {
    params.set('cursor', data.next_cursor);
    view.append(el('p', {}, el('a', { href: `#audit?${params}`, text: 'Next page' })));
  }
}
