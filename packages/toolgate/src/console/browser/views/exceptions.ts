/**
 * Exceptions granted by approvers: the declared kinds, the list (active and past), a grant form per kind
 * the token may grant (a choice for every target field with known values, UTC date-times) and a
 * two-step revoke.
 */
import { $, badge, control, el, empty, heading, type NamedControl, reload, say, table } from '../dom.ts';
import { labelOf, parseUtcInput, targetText, utc, utcCell } from '../format.ts';
import {
  call,
  type ExceptionEntry,
  type ExceptionKindView,
  type OperatorAnswers,
  refusalText,
  type TargetFieldSchema,
} from '../operator-api.ts';
import { utcField } from '../utc-field.ts';

export async function showExceptions(view: HTMLElement) {
  const [listed, declared] = await Promise.all([
    call<OperatorAnswers['exceptions']>('GET', '/operator/v1/exceptions'),
    call<OperatorAnswers['exceptionKinds']>('GET', '/operator/v1/exception-kinds'),
  ]);
  if (listed.status !== 200 || declared.status !== 200) {
    view.append(
      ...heading('Exceptions'),
      el('p', { text: `This token may not see exceptions (${listed.status}).` }),
    );
    return;
  }
  const { exceptions } = listed.data;
  const { kinds } = declared.data;
  view.append(...heading(`Exceptions (${exceptions.length})`));
  for (const kind of kinds) {
    view.append(
      el('p', { class: 'lead' }, el('strong', { text: `${kind.title} (${kind.kind}): ` }), kind.description),
    );
  }
  if (kinds.length === 0) view.append(empty('No module of this gateway declares an exception kind.'));
  view.append(
    exceptions.length === 0
      ? empty(
          'No exception has been granted. Exceptions you grant below are listed here, with who granted and revoked them.',
        )
      : table(
          'Exceptions',
          [
            { label: 'Exception', width: 'id' },
            { label: 'Kind', width: 'num' },
            { label: 'For' },
            { label: 'Window (UTC)', width: 'stamp', wrap: true },
            { label: 'Reason' },
            { label: 'Granted by', width: 'who' },
            { label: 'State', width: 'state' },
            { label: 'Revoke', width: 'action', hidden: true },
          ],
          exceptions.map((x) => [
            el('span', { class: 'mono', text: x.exception_id }),
            x.kind,
            targetText(x.target),
            el('span', {}, utcCell(x.starts_at), el('br'), `to ${utcCell(x.ends_at)}`),
            x.reason,
            el('span', { title: `${x.granted_by} at ${utc(x.granted_at)}`, text: x.granted_by }),
            el('span', {}, badge(x.state), x.revoked_by ? ` by ${x.revoked_by}` : ''),
            (x.state === 'active' || x.state === 'scheduled') &&
            kinds.some((k) => k.kind === x.kind && k.may_grant)
              ? revokeButton(x)
              : '',
          ]),
        ),
  );
  for (const kind of kinds.filter((k) => k.may_grant)) view.append(grantForm(kind));
}

function revokeButton(x: ExceptionEntry) {
  const button = el('button', { type: 'button', text: 'Revoke', 'aria-label': `Revoke ${x.exception_id}` });
  button.addEventListener('click', async () => {
    if (button.dataset.armed !== 'yes') {
      button.dataset.armed = 'yes';
      button.classList.add('danger');
      button.textContent = 'Confirm revoke';
      button.setAttribute('aria-label', `Confirm revoke ${x.exception_id}`);
      return;
    }
    const { status, data } = await call<object>(
      'DELETE',
      `/operator/v1/exceptions/${encodeURIComponent(x.exception_id)}`,
    );
    say(status === 200 ? `Revoked ${x.exception_id}.` : (data.message ?? `Refused (${status}).`));
    reload();
  });
  return button;
}

/** One control per target field, drawn from its JSON Schema: a choice for known values, a box for a flag. */
function targetControl(id: string, name: string, schema: TargetFieldSchema, hint?: string): HTMLElement {
  const described: Record<string, string> = hint ? { 'aria-describedby': hint } : {};
  if (Array.isArray(schema.enum)) {
    return el(
      'select',
      { id, name, required: '', ...described },
      ...schema.enum.map((option) => el('option', { value: String(option), text: String(option) })),
    );
  }
  if (schema.type === 'boolean') return el('input', { id, name, type: 'checkbox', ...described });
  const bounds: Record<string, string> = {};
  if (schema.maxLength !== undefined) bounds.maxlength = String(schema.maxLength);
  if (schema.minLength !== undefined) bounds.minlength = String(schema.minLength);
  if (schema.minimum !== undefined) bounds.min = String(schema.minimum);
  if (schema.maximum !== undefined) bounds.max = String(schema.maximum);
  const type = schema.type === 'number' || schema.type === 'integer' ? 'number' : 'text';
  return el('input', { id, name, type, required: '', autocomplete: 'off', ...described, ...bounds });
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
  const hours = Math.floor(kind.max_duration_seconds / 3600);
  const form = el(
    'form',
    { id: `grant-${kind.kind}`, class: 'grant-form panel', 'aria-labelledby': id('title'), novalidate: '' },
    el('h3', { id: id('title'), text: `Grant: ${kind.title}` }),
    el(
      'div',
      {
        class: 'form-grid',
      },
      ...fields.map(([name, schema]) =>
        el(
          'div',
          { class: 'field' },
          el('label', { for: id(name), text: labelOf(name) }),
          targetControl(id(name), name, schema, schema.description ? id(`${name}-hint`) : undefined),
          schema.description
            ? el('small', { id: id(`${name}-hint`), class: 'hint', text: schema.description })
            : null,
        ),
      ),
      el('div', { class: 'field' }, ...utcField(id('starts_at'), 'starts_at', 'Starts', { required: true })),
      el('div', { class: 'field' }, ...utcField(id('ends_at'), 'ends_at', 'Ends', { required: true })),
    ),
    el('p', {
      class: 'hint',
      text: `An exception lasts at most ${hours} hours and never applies to its grantor's own requests.`,
    }),
    el('label', { for: id('reason'), text: 'Reason (required: why this rule may be set aside)' }),
    el('textarea', {
      id: id('reason'),
      name: 'reason',
      rows: '2',
      required: '',
      minlength: '10',
      maxlength: '500',
    }),
    el('p', { id: id('error'), class: 'error', role: 'alert' }),
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'primary', text: 'Grant exception' }),
    ),
  ) as HTMLFormElement;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (name: string) => control(form, name)!.value.trim();
    const times = { starts_at: parseUtcInput(value('starts_at')), ends_at: parseUtcInput(value('ends_at')) };
    const unreadable = Object.entries(times).filter(([, t]) => t === null);
    if (unreadable.length > 0) {
      $(id('error')).textContent = unreadable
        .map(([name]) => `${labelOf(name)}: type a UTC time as YYYY-MM-DD HH:MM.`)
        .join(' ');
      return;
    }
    const target = Object.fromEntries(
      fields.map(([name, schema]) => [name, targetValue(control(form, name)!, schema)]),
    );
    const body = { kind: kind.kind, target, ...times, reason: value('reason') };
    const { status, data } = await call<OperatorAnswers['exceptionGranted']>(
      'POST',
      '/operator/v1/exceptions',
      body,
    );
    if (status === 201) {
      say(`Granted ${data.exception_id} for ${targetText(data.target)}.`);
      reload();
      return;
    }
    $(id('error')).textContent =
      status === 404 ? `Nothing in your tenant matches ${targetText(target)}.` : refusalText(data, status);
  });
  return form;
}
