/**
 * The console's behaviour, a browser module (no framework): hash routes, fetch calls to /operator/v1
 * with the token as a header, DOM built with textContent only so no operation data is ever parsed as
 * HTML. Compiled to dist/console/browser/app.js with the rest of the package and served as /console/app.js.
 */
import { activitySection, type ElementFactory } from './charts.ts';
import type {
  ApiReply,
  ConfirmationQuestionView,
  ExceptionEntry,
  ExceptionKindView,
  OperationStatus,
  OperationView,
  OperatorAnswers,
  Refusal,
  TargetFieldSchema,
} from './operator-api.ts';

/** A form control read by name: an input, a textarea, a select or a group of radio buttons. */
interface NamedControl {
  value: string;
}

const TOKEN_KEY = 'toolgate.operatorToken';
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const token = () => sessionStorage.getItem(TOKEN_KEY);
const control = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as NamedControl | null;

const el: ElementFactory = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = String(v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v as EventListener);
    else node.setAttribute(k, String(v));
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
};

async function call<T>(method: string, path: string, body?: unknown): Promise<ApiReply<T>> {
  const response = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const data = (await response.json().catch(() => ({}))) as T & Refusal;
  if (response.status === 401) {
    signOut('The token was not accepted (expired, wrong audience or invalid).');
    throw new Error('401');
  }
  return { status: response.status, data };
}

function say(text: string) {
  $('status').textContent = text;
}

type Cell = Node | string | number | null | undefined;

function table(headers: readonly string[], rows: readonly (readonly Cell[])[]) {
  return el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })))),
    el(
      'tbody',
      {},
      ...rows.map((cells) =>
        el('tr', {}, ...cells.map((c) => el('td', {}, c instanceof Node ? c : String(c ?? '')))),
      ),
    ),
  );
}

function requestText(request: OperationView['request']) {
  if (!request) return '';
  return Object.entries(request)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? `(${v.join(', ')} withheld)` : v}`)
    .join('; ');
}

const timestamp = (iso: string) => iso.replace('T', ' ').slice(0, 19);

function operationRows(operations: readonly OperationView[], withResolve: boolean): Cell[][] {
  return operations.map((o) => [
    el('a', { href: `#operation/${o.operation_id}`, class: 'mono', text: o.operation_id }),
    `${o.tool} ${o.contract_version}`,
    o.caller,
    el('span', { class: 'badge', text: o.status }),
    timestamp(o.created_at),
    o.reconcile_attempts,
    o.last_finding ?? '',
    requestText(o.request),
    withResolve
      ? el('button', {
          type: 'button',
          text: 'Resolve',
          'aria-label': `Resolve ${o.operation_id}`,
          onclick: () => openResolve(o),
        })
      : '',
  ]);
}

const HEADERS = [
  'Operation',
  'Tool',
  'Caller',
  'Status',
  'Created (UTC)',
  'Reconcile attempts',
  'Last finding',
  'Request',
  '',
];

async function showQueue(view: HTMLElement) {
  const parts = await Promise.all(
    ['needs_review', 'outcome_unknown'].map((s) =>
      call<OperatorAnswers['operations']>('GET', `/operator/v1/operations?status=${s}&limit=200`),
    ),
  );
  if (parts.some((p) => p.status === 403)) {
    view.append(el('p', { text: 'This token may not read operations.' }));
    return;
  }
  view.append(await activitySection(call, el));
  const operations = parts.flatMap((p) => p.data.operations);
  view.append(el('h2', { text: `Review queue (${operations.length})` }));
  if (operations.length === 0) {
    view.append(el('p', { text: 'Nothing awaits a decision.' }));
    return;
  }
  view.append(table(HEADERS, operationRows(operations, true)));
}

async function showConfirmations(view: HTMLElement) {
  const { status, data } = await call<OperatorAnswers['confirmations']>('GET', '/operator/v1/confirmations');
  if (status !== 200) {
    view.append(el('p', { text: `This token may not see confirmations (${status}).` }));
    return;
  }
  view.append(el('h2', { text: `Confirmations awaiting an approver (${data.confirmations.length})` }));
  if (data.confirmations.length === 0) {
    view.append(el('p', { text: 'No call waits for an approver.' }));
    return;
  }
  view.append(
    table(
      ['Operation', 'Tool', 'Requested by', 'Question', 'Asked (UTC)', 'Expires (UTC)'],
      data.confirmations.map((c) => [
        el('a', {
          href: `#operation/${c.operation_id}`,
          class: 'mono',
          text: c.operation_id,
          'aria-label': `Open ${c.operation_id}`,
        }),
        c.tool,
        c.requester,
        c.message,
        timestamp(c.asked_at),
        timestamp(c.expires_at),
      ]),
    ),
  );
}

/** The question exactly as the tool built it; for a pending one, the approver's answer form. */
function confirmationSection(c: ConfirmationQuestionView) {
  const section = el(
    'section',
    { 'aria-labelledby': 'confirmation-title' },
    el('h3', { id: 'confirmation-title', text: `Confirmation (${c.state})` }),
  );
  const question = el(
    'div',
    { class: 'question' },
    el('p', { text: c.message }),
    el(
      'dl',
      {},
      ...Object.entries(c.details).flatMap(([k, v]) => [
        el('dt', { text: k }),
        el('dd', { text: v === null ? 'none' : String(v) }),
      ]),
    ),
  );
  section.append(
    question,
    el('p', {
      text: `Requested by ${c.requester} at ${c.asked_at}; expires ${c.expires_at}. Digest ${c.digest}.`,
    }),
  );
  if (c.state !== 'pending') {
    const by = c.answered_by ? ` by ${c.answered_by}` : '';
    const at = c.answered_at ? ` at ${c.answered_at}` : '';
    const chosen = c.chosen ? ` (${c.chosen})` : '';
    const note = c.note ? `: ${c.note}` : '';
    section.append(el('p', { text: `Answered ${c.state}${by}${at}${chosen}${note}` }));
    return section;
  }
  const form = el('form', { id: 'confirm-form' }) as HTMLFormElement;
  if (c.choice) {
    form.append(
      el(
        'fieldset',
        {},
        el('legend', { text: c.choice.title }),
        ...c.choice.options.map((o) =>
          el('label', {}, el('input', { type: 'radio', name: 'choice', value: o.value }), o.title),
        ),
      ),
    );
  }
  form.append(
    el('label', { for: 'confirm-note', text: 'Note (optional)' }),
    el('textarea', { id: 'confirm-note', name: 'note', rows: '2', maxlength: '500' }),
    el('p', { id: 'confirm-error', role: 'alert' }),
    el(
      'div',
      { class: 'actions' },
      el('button', {
        type: 'button',
        text: 'Confirm and run',
        onclick: () => answerConfirmation(c, 'confirm', form),
      }),
      el('button', { type: 'button', text: 'Refuse', onclick: () => answerConfirmation(c, 'refuse', form) }),
    ),
  );
  section.append(form);
  return section;
}

/** A refusal in words: its message, else the problems of what was sent, else its status. */
function refusalText(data: Refusal, status: number) {
  return (
    data.message ??
    (data.problems
      ? data.problems.map((p) => `${p.parameter} ${p.message}`).join('; ')
      : `Refused (${status}).`)
  );
}

async function answerConfirmation(
  c: ConfirmationQuestionView,
  decision: 'confirm' | 'refuse',
  form: HTMLFormElement,
) {
  const choice = control(form, 'choice')
    ? form.querySelector<HTMLInputElement>('input[name=choice]:checked')?.value
    : undefined;
  if (decision === 'confirm' && c.choice && !choice) {
    $('confirm-error').textContent = `Choose: ${c.choice.title}.`;
    return;
  }
  const note = control(form, 'note')!.value.trim();
  const body = {
    decision,
    ...(decision === 'confirm' && choice ? { choice } : {}),
    ...(note ? { note } : {}),
  };
  const { status, data } = await call<OperatorAnswers['confirmationAnswer']>(
    'POST',
    `/operator/v1/operations/${encodeURIComponent(c.operation_id)}/confirmation`,
    body,
  );
  if (status !== 200) {
    $('confirm-error').textContent = refusalText(data, status);
    return;
  }
  const code = data.outcome.code ? ` (${data.outcome.code})` : '';
  say(
    `${decision === 'confirm' ? 'Confirmed ' : 'Refused '}${c.operation_id}: ${data.outcome.status}${code}.`,
  );
  route();
}

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

async function showOperations(view: HTMLElement, params: URLSearchParams) {
  const form = el(
    'form',
    { class: 'filters', role: 'search' },
    el(
      'label',
      {},
      'Status ',
      el('select', { name: 'status' }, ...STATUSES.map((s) => el('option', { value: s, text: s || 'any' }))),
    ),
    el('label', {}, 'Tool ', el('input', { name: 'tool' })),
    el('label', {}, 'Since (UTC) ', el('input', { name: 'since', type: 'datetime-local' })),
    el('button', { type: 'submit', text: 'Filter' }),
  ) as HTMLFormElement;
  for (const [k, v] of params) {
    const field = control(form, k);
    if (field) field.value = v;
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const k of ['status', 'tool', 'since']) {
      const value = control(form, k)!.value;
      if (value) next.set(k, k === 'since' ? new Date(`${value}Z`).toISOString() : value);
    }
    location.hash = `operations?${next}`;
  });
  view.append(el('h2', { text: 'Operations' }), form);
  const { status, data } = await call<OperatorAnswers['operations']>(
    'GET',
    `/operator/v1/operations?${params}`,
  );
  if (status !== 200) {
    view.append(el('p', { text: data.message ?? `Could not list operations (${status}).` }));
    return;
  }
  view.append(
    table(
      HEADERS.slice(0, -1),
      operationRows(data.operations, false).map((r) => r.slice(0, -1)),
    ),
  );
  if (data.next_cursor) {
    params.set('cursor', data.next_cursor);
    view.append(el('a', { href: `#operations?${params}`, text: 'Next page' }));
  }
}

async function showOperation(view: HTMLElement, id: string) {
  const { status, data } = await call<OperatorAnswers['operation']>(
    'GET',
    `/operator/v1/operations/${encodeURIComponent(id)}`,
  );
  if (status !== 200) {
    view.append(
      el('p', { text: status === 404 ? 'No such operation in your tenant.' : `Not allowed (${status}).` }),
    );
    return;
  }
  const o = data.operation;
  const facts: [string, unknown][] = [
    ['Tool', `${o.tool} ${o.contract_version}`],
    ['Caller', o.caller],
    ['Status', o.status],
    ['Code', o.code ?? ''],
    ['Message', o.message ?? ''],
    ['Created', o.created_at],
    ['Updated', o.updated_at],
    ['Deliveries', o.delivery_attempts],
    ['Reconcile attempts', o.reconcile_attempts],
    ['Last finding', o.last_finding ?? ''],
    ['Next check', o.next_check_at ?? ''],
    ['Request', requestText(o.request)],
    ['External refs', JSON.stringify(o.external_refs)],
  ];
  view.append(
    el('h2', { class: 'mono', text: o.operation_id }),
    el('dl', {}, ...facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })])),
  );
  if (o.status === 'needs_review' || o.status === 'outcome_unknown') {
    view.append(el('button', { type: 'button', text: 'Resolve', onclick: () => openResolve(o) }));
  }
  if (data.confirmation) view.append(confirmationSection(data.confirmation));
  view.append(
    el('h3', { text: 'Timeline (audit)' }),
    table(
      ['At', 'Action', 'Who', 'Status', 'Code', 'Replayed', 'Detail'],
      data.audit.map((a) => [
        a.at,
        a.action,
        `${a.subject} (${a.actor})`,
        a.status,
        a.code ?? '',
        a.replayed ? 'yes' : '',
        JSON.stringify(a.detail),
      ]),
    ),
  );
  view.append(
    el('h3', { text: 'Review decisions' }),
    data.reviews.length === 0
      ? el('p', { text: 'None yet.' })
      : table(
          ['At', 'Operator', 'Before', 'Decision', 'Note'],
          data.reviews.map((r) => [r.at, r.operator, r.previous_status, r.resolution, r.note]),
        ),
  );
}

async function showTools(view: HTMLElement) {
  const { status, data } = await call<OperatorAnswers['tools']>('GET', '/operator/v1/tools');
  if (status !== 200) {
    view.append(el('p', { text: `Not allowed (${status}).` }));
    return;
  }
  const counts = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  view.append(
    el('h2', { text: 'Tools' }),
    el('p', { text: 'Call counts since this gateway process started (all tenants).' }),
    table(
      ['Tool', 'Title', 'Kind', 'Contract version', 'Scopes', 'Calls by status', 'Error codes'],
      data.tools.map((t) => [
        el('code', { text: t.name }),
        t.title,
        t.kind,
        t.contract_version,
        t.scopes.join(' '),
        counts(t.calls),
        counts(t.error_codes),
      ]),
    ),
  );
}

const utc = (iso: string) => iso.replace('T', ' ').slice(0, 16);

/** Exceptions granted by approvers: the list (active and past), a grant form per kind, and a two-step revoke. */
async function showExceptions(view: HTMLElement) {
  const [listed, declared] = await Promise.all([
    call<OperatorAnswers['exceptions']>('GET', '/operator/v1/exceptions'),
    call<OperatorAnswers['exceptionKinds']>('GET', '/operator/v1/exception-kinds'),
  ]);
  if (listed.status !== 200 || declared.status !== 200) {
    view.append(el('p', { text: `This token may not see exceptions (${listed.status}).` }));
    return;
  }
  const { exceptions } = listed.data;
  const { kinds } = declared.data;
  view.append(el('h2', { text: `Exceptions (${exceptions.length})` }));
  for (const kind of kinds) {
    view.append(el('p', {}, el('strong', { text: `${kind.title} (${kind.kind}): ` }), kind.description));
  }
  if (kinds.length === 0)
    view.append(el('p', { text: 'No module of this gateway declares an exception kind.' }));
  if (exceptions.length === 0) view.append(el('p', { text: 'No exception has been granted.' }));
  else
    view.append(
      table(
        ['Exception', 'Kind', 'For', 'Starts (UTC)', 'Ends (UTC)', 'Reason', 'Granted by', 'State', ''],
        exceptions.map((x) => [
          el('span', { class: 'mono', text: x.exception_id }),
          x.kind,
          targetText(x.target),
          utc(x.starts_at),
          utc(x.ends_at),
          x.reason,
          `${x.granted_by} at ${utc(x.granted_at)}`,
          el('span', { class: 'badge', text: x.state + (x.revoked_by ? ` by ${x.revoked_by}` : '') }),
          (x.state === 'active' || x.state === 'scheduled') &&
          kinds.some((k) => k.kind === x.kind && k.may_grant)
            ? revokeButton(x)
            : '',
        ]),
      ),
    );
  for (const kind of kinds.filter((k) => k.may_grant)) view.append(grantForm(kind));
}

const targetText = (target: Readonly<Record<string, unknown>>) =>
  Object.entries(target)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ');

/** `customer_id` as a label: "Customer id". */
const labelOf = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1).replaceAll('_', ' ')}`;

function revokeButton(x: ExceptionEntry) {
  const button = el('button', { type: 'button', text: 'Revoke', 'aria-label': `Revoke ${x.exception_id}` });
  button.addEventListener('click', async () => {
    if (button.dataset.armed !== 'yes') {
      button.dataset.armed = 'yes';
      button.textContent = 'Confirm revoke';
      button.setAttribute('aria-label', `Confirm revoke ${x.exception_id}`);
      return;
    }
    const { status, data } = await call<object>(
      'DELETE',
      `/operator/v1/exceptions/${encodeURIComponent(x.exception_id)}`,
    );
    say(status === 200 ? `Revoked ${x.exception_id}.` : (data.message ?? `Refused (${status}).`));
    route();
  });
  return button;
}

/** One control per target field, drawn from its JSON Schema: a choice for an enum, a box for a flag. */
function targetControl(id: string, name: string, schema: TargetFieldSchema): HTMLElement {
  if (Array.isArray(schema.enum)) {
    return el(
      'select',
      { id, name, required: '' },
      ...schema.enum.map((option) => el('option', { value: String(option), text: String(option) })),
    );
  }
  if (schema.type === 'boolean') return el('input', { id, name, type: 'checkbox' });
  const bounds: Record<string, string> = {};
  if (schema.maxLength !== undefined) bounds.maxlength = String(schema.maxLength);
  if (schema.minLength !== undefined) bounds.minlength = String(schema.minLength);
  if (schema.minimum !== undefined) bounds.min = String(schema.minimum);
  if (schema.maximum !== undefined) bounds.max = String(schema.maximum);
  const type = schema.type === 'number' || schema.type === 'integer' ? 'number' : 'text';
  return el('input', { id, name, type, required: '', autocomplete: 'off', ...bounds });
}

function targetValue(field: NamedControl, schema: TargetFieldSchema): unknown {
  if (schema.type === 'boolean') return (field as unknown as HTMLInputElement).checked;
  const text = field.value.trim();
  if (schema.type === 'number' || schema.type === 'integer') return text === '' ? text : Number(text);
  return text;
}

function grantForm(kind: ExceptionKindView) {
  const id = (name: string) => `grant-${kind.kind}-${name}`;
  const fields = Object.entries(kind.target.properties ?? {});
  const field = (label: string, name: string, attrs: Record<string, string> = {}) => [
    el('label', { for: id(name), text: label }),
    el('input', { id: id(name), name, required: '', autocomplete: 'off', ...attrs }),
  ];
  const form = el(
    'form',
    { id: `grant-${kind.kind}`, class: 'grant-form', 'aria-labelledby': id('title') },
    el('h3', { id: id('title'), text: `Grant: ${kind.title}` }),
    ...fields.flatMap(([name, schema]) => [
      el('label', {
        for: id(name),
        text: schema.description ? `${labelOf(name)} (${schema.description})` : labelOf(name),
      }),
      targetControl(id(name), name, schema),
    ]),
    ...field('Starts (UTC)', 'starts_at', { type: 'datetime-local' }),
    ...field('Ends (UTC)', 'ends_at', { type: 'datetime-local' }),
    el('label', { for: id('reason'), text: 'Reason (required: why this rule may be set aside)' }),
    el('textarea', {
      id: id('reason'),
      name: 'reason',
      rows: '2',
      required: '',
      minlength: '10',
      maxlength: '500',
    }),
    el('p', { id: id('error'), role: 'alert' }),
    el('div', { class: 'actions' }, el('button', { type: 'submit', text: 'Grant exception' })),
  ) as HTMLFormElement;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (name: string) => control(form, name)!.value.trim();
    const at = (name: string) => (value(name) ? new Date(`${value(name)}Z`).toISOString() : '');
    const target = Object.fromEntries(
      fields.map(([name, schema]) => [name, targetValue(control(form, name)!, schema)]),
    );
    const body = {
      kind: kind.kind,
      target,
      starts_at: at('starts_at'),
      ends_at: at('ends_at'),
      reason: value('reason'),
    };
    const { status, data } = await call<OperatorAnswers['exceptionGranted']>(
      'POST',
      '/operator/v1/exceptions',
      body,
    );
    if (status === 201) {
      say(`Granted ${data.exception_id} for ${targetText(data.target)}.`);
      route();
      return;
    }
    $(id('error')).textContent =
      status === 404
        ? `Nothing in your tenant matches ${targetText(target)}.`
        : data.problems
          ? data.problems.map((p) => `${p.parameter} ${p.message}`).join('; ')
          : (data.message ?? `Refused (${status}).`);
  });
  return form;
}

let resolving: OperationView | null = null;
function openResolve(operation: OperationView) {
  resolving = operation;
  $<HTMLFormElement>('resolve-form').reset();
  $('resolve-summary').textContent =
    `${operation.tool} by ${operation.caller} (${operation.operation_id}), ${operation.status}. ${requestText(operation.request)}`;
  $<HTMLFieldSetElement>('resolve-edit').disabled = false;
  for (const id of ['resolve-confirm', 'resolve-confirm-text']) $(id).hidden = true;
  $('resolve-review').hidden = false;
  $('resolve-error').textContent = '';
  $<HTMLDialogElement>('resolve-dialog').showModal();
}

function decision() {
  const form = $<HTMLFormElement>('resolve-form');
  return {
    outcome: control(form, 'outcome')!.value,
    note: control(form, 'note')!.value.trim(),
    reference: control(form, 'reference')!.value.trim(),
  };
}

$('resolve-review').addEventListener('click', () => {
  const d = decision();
  if (!d.outcome) {
    $('resolve-error').textContent = 'Choose what happened.';
    return;
  }
  if (d.note.length < 3) {
    $('resolve-error').textContent = 'A note is required: say what you checked.';
    return;
  }
  $('resolve-error').textContent = '';
  $<HTMLFieldSetElement>('resolve-edit').disabled = true;
  const happened = d.outcome === 'completed' ? 'happened (completed)' : 'did not happen (rejected)';
  $('resolve-confirm-text').textContent =
    `Record that ${resolving!.operation_id} ${happened}? This cannot be changed afterwards.`;
  $('resolve-confirm-text').hidden = false;
  $('resolve-review').hidden = true;
  $('resolve-confirm').hidden = false;
  $('resolve-confirm').focus();
});
$('resolve-cancel').addEventListener('click', () => $<HTMLDialogElement>('resolve-dialog').close());
$('resolve-confirm').addEventListener('click', async () => {
  const d = decision();
  const body = { outcome: d.outcome, note: d.note, ...(d.reference ? { reference: d.reference } : {}) };
  const { status, data } = await call<OperatorAnswers['resolved']>(
    'POST',
    `/operator/v1/operations/${resolving!.operation_id}/resolve`,
    body,
  );
  if (status !== 200) {
    $('resolve-error').textContent = data.message ?? `Refused (${status}).`;
    return;
  }
  $<HTMLDialogElement>('resolve-dialog').close();
  say(`Resolved ${resolving!.operation_id} as ${data.decision.outcome}.`);
  route();
});

function signOut(message?: string) {
  sessionStorage.removeItem(TOKEN_KEY);
  say(message ?? 'Signed out.');
  route();
}

async function route() {
  const signedIn = Boolean(token());
  $('sign-in').hidden = signedIn;
  $('nav').hidden = !signedIn;
  const view = $('view');
  view.hidden = !signedIn;
  view.replaceChildren();
  if (!signedIn) return;
  const [page, rest = ''] = location.hash.slice(1).split(/[/?](.*)/s);
  try {
    if (page === 'operations') await showOperations(view, new URLSearchParams(rest));
    else if (page === 'operation') await showOperation(view, rest);
    else if (page === 'tools') await showTools(view);
    else if (page === 'confirmations') await showConfirmations(view);
    else if (page === 'exceptions') await showExceptions(view);
    else await showQueue(view);
  } catch (error) {
    // Whatever the page threw: a failed fetch, an unreadable answer, or the 401 already shown.
    const { message } = error as Error;
    if (message !== '401') say(`Could not load: ${message}`);
  }
}

$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $<HTMLInputElement>('token').value.trim());
  $<HTMLInputElement>('token').value = '';
  say('');
  route();
});
$('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => {
  say('');
  route();
});
route();
