/** A parked question on its operation's page: as the tool built it, and for a pending one the approver's answer form. */
import { $, control, el, fields, reload, say } from '../dom.ts';
import { utc, valueText } from '../format.ts';
import { type ConfirmationQuestionView, call, type OperatorAnswers, refusalText } from '../operator-api.ts';

export function confirmationSection(c: ConfirmationQuestionView) {
  const section = el(
    'section',
    { class: 'panel', 'aria-labelledby': 'confirmation-title' },
    el('h3', { id: 'confirmation-title', text: `Confirmation (${c.state})` }),
  );
  section.append(
    el(
      'div',
      { class: 'question' },
      el('p', { text: c.message }),
      fields(Object.entries(c.details).map(([k, v]) => [k, valueText(v)])),
    ),
    fields([
      ['Requested by', c.requester],
      ['Asked', utc(c.asked_at)],
      ['Expires', utc(c.expires_at)],
      ['Digest', el('code', { text: c.digest })],
    ]),
  );
  if (c.state !== 'pending') {
    const by = c.answered_by ? ` by ${c.answered_by}` : '';
    const at = c.answered_at ? ` at ${utc(c.answered_at)}` : '';
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
          el(
            'label',
            { class: 'choice' },
            el('input', { type: 'radio', name: 'choice', value: o.value }),
            o.title,
          ),
        ),
      ),
    );
  }
  form.append(
    el('label', { for: 'confirm-note', text: 'Note (optional)' }),
    el('textarea', { id: 'confirm-note', name: 'note', rows: '2', maxlength: '500' }),
    el('p', { id: 'confirm-error', class: 'error', role: 'alert' }),
    el(
      'div',
      { class: 'actions' },
      el('button', {
        type: 'button',
        class: 'primary',
        text: 'Confirm and run',
        onclick: () => answer(c, 'confirm', form),
      }),
      el('button', { type: 'button', text: 'Refuse', onclick: () => answer(c, 'refuse', form) }),
    ),
  );
  section.append(form);
  return section;
}

async function answer(c: ConfirmationQuestionView, decision: 'confirm' | 'refuse', form: HTMLFormElement) {
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
  reload();
}
