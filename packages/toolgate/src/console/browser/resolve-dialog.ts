/**
 * The resolve dialog of the page's shell: what happened (completed or rejected), a required note and an
 * optional reference, then a second step that says the decision cannot be changed, then the API call.
 */
import { $, control, reload, say } from './dom.ts';
import { requestText } from './format.ts';
import { call, type OperationView, type OperatorAnswers, refusalText } from './operator-api.ts';

let resolving: OperationView | null = null;

export function openResolve(operation: OperationView) {
  resolving = operation;
  $<HTMLFormElement>('resolve-form').reset();
  const request = requestText(operation.request);
  $('resolve-summary').textContent =
    `${operation.tool} by ${operation.caller} (${operation.operation_id}), ${operation.status}.${request ? ` ${request}` : ''}`;
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

/** Wires the dialog's buttons, once, when the console starts. */
export function wireResolveDialog() {
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
      `/operator/v1/operations/${encodeURIComponent(resolving!.operation_id)}/resolve`,
      body,
    );
    if (status !== 200) {
      $('resolve-error').textContent = refusalText(data, status);
      return;
    }
    $<HTMLDialogElement>('resolve-dialog').close();
    say(`Resolved ${resolving!.operation_id} as ${data.decision.outcome}.`);
    reload();
  });
}
