/** The served tools: contract versions, scopes and this process's call counts. */
import { el, empty, heading, table } from '../dom.ts';
import { call, type OperatorAnswers } from '../operator-api.ts';

const counts = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

export async function showTools(view: HTMLElement) {
  const { status, data } = await call<OperatorAnswers['tools']>('GET', '/operator/v1/tools');
  if (status !== 200) {
    view.append(...heading('Tools'), el('p', { text: `Not allowed (${status}).` }));
    return;
  }
  view.append(...heading('Tools', 'Call counts since this gateway process started (all tenants).'));
  view.append(
    data.tools.length === 0
      ? empty('This gateway serves no tool.')
      : table(
          'Tools',
          [
            { label: 'Tool', width: 'tool' },
            { label: 'Title' },
            { label: 'Kind', width: 'num' },
            { label: 'Version', width: 'num' },
            { label: 'Scopes' },
            { label: 'Calls by status' },
            { label: 'Error codes' },
          ],
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
