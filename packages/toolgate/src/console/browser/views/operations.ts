/** Every operation of the tenant, filtered by status, tool and creation time (UTC), a page at a time. */
import { control, el, empty, heading } from '../dom.ts';
import { parseUtcInput } from '../format.ts';
import { operationTable } from '../operation-table.ts';
import { call, type OperationStatus, type OperatorAnswers } from '../operator-api.ts';
import { utcField } from '../utc-field.ts';

/** The status filter's choices, in the order an operator reads them ('' for any). */
const STATUSES = [
  '',
  'in_progress',
  'awaiting_confirmation',
  'completed',
  'submitted',
  'rejected',
  'requires_confirmation',
  'failed',
  'outcome_unknown',
  'needs_review',
] as const satisfies readonly ('' | OperationStatus)[];
// Every status the store records is a choice: a new one is a type error here, not a missing filter.
const EVERY_STATUS_LISTED: Exclude<OperationStatus, (typeof STATUSES)[number]> extends never ? true : never =
  true;
void EVERY_STATUS_LISTED;

const options = (values: readonly string[], selected: string | null) =>
  values.map((v) =>
    el('option', { value: v, text: v || 'any', ...(v === (selected ?? '') ? { selected: '' } : {}) }),
  );

export async function showOperations(view: HTMLElement, params: URLSearchParams) {
  // The served tools are the tool filter's choices (a tool no longer served can still be named in the URL).
  const tools = await call<OperatorAnswers['tools']>('GET', '/operator/v1/tools');
  const names = tools.status === 200 ? [...new Set(tools.data.tools.map((t) => t.name))].sort() : [];
  const asked = params.get('tool');
  if (asked && !names.includes(asked)) names.push(asked);
  const form = el(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter operations', novalidate: '' },
    el(
      'div',
      { class: 'field' },
      el('label', { for: 'filter-status', text: 'Status' }),
      el('select', { id: 'filter-status', name: 'status' }, ...options(STATUSES, params.get('status'))),
    ),
    el(
      'div',
      { class: 'field' },
      el('label', { for: 'filter-tool', text: 'Tool' }),
      el('select', { id: 'filter-tool', name: 'tool' }, ...options(['', ...names], asked)),
    ),
    el(
      'div',
      { class: 'field' },
      ...utcField('filter-since', 'since', 'Created since', { value: params.get('since') ?? '' }),
    ),
    el('div', { class: 'field' }, el('button', { type: 'submit', class: 'primary', text: 'Filter' })),
    el('p', { id: 'filter-error', class: 'error', role: 'alert' }),
  ) as HTMLFormElement;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const k of ['status', 'tool']) {
      const value = control(form, k)!.value;
      if (value) next.set(k, value);
    }
    const since = parseUtcInput(control(form, 'since')!.value);
    if (since === null) {
      form.querySelector('#filter-error')!.textContent =
        'Created since: type a UTC time as YYYY-MM-DD HH:MM.';
      return;
    }
    if (since) next.set('since', since);
    location.hash = `operations?${next}`;
  });
  view.append(...heading('Operations', 'Every operation of your tenant, oldest first.'), form);
  const { status, data } = await call<OperatorAnswers['operations']>(
    'GET',
    `/operator/v1/operations?${params}`,
  );
  if (status !== 200) {
    view.append(el('p', { text: data.message ?? `Could not list operations (${status}).` }));
    return;
  }
  view.append(
    data.operations.length === 0
      ? empty(
          params.size > 0
            ? 'No operation matches these filters. Widen them (status any, an earlier time) to see more.'
            : 'No operation yet. Every write or request call a tool answers is listed here.',
        )
      : operationTable('Operations', data.operations, false),
  );
  if (data.next_cursor) {
    params.set('cursor', data.next_cursor);
    view.append(el('p', {}, el('a', { href: `#operations?${params}`, text: 'Next page' })));
  }
}
