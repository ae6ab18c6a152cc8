/**
 * Operations as a table (the review queue and the operations list): id, tool, caller, status, when it
 * was created, the reconciler's last finding and what was requested, cut to their cells with the full
 * text as a tooltip; the review queue adds a Resolve button per row.
 */
import { badge, type Cell, type Column, el, table } from './dom.ts';
import { requestText, utcCell } from './format.ts';
import type { OperationView } from './operator-api.ts';
import { openResolve } from './resolve-dialog.ts';

const COLUMNS: readonly Column[] = [
  { label: 'Operation', width: 'id' },
  { label: 'Tool', width: 'tool' },
  { label: 'Caller', width: 'who' },
  { label: 'Status', width: 'state' },
  { label: 'Created (UTC)', width: 'time' },
  { label: 'Last finding' },
  { label: 'Request' },
];
const RESOLVE: Column = { label: 'Action', width: 'action', hidden: true };

export function operationLink(id: string, label?: string) {
  return el('a', {
    href: `#operation/${id}`,
    class: 'mono',
    text: id,
    ...(label ? { 'aria-label': label } : {}),
  });
}

export function operationTable(label: string, operations: readonly OperationView[], withResolve: boolean) {
  const rows = operations.map((o): Cell[] => [
    operationLink(o.operation_id),
    `${o.tool} ${o.contract_version}`,
    o.caller,
    badge(o.status),
    utcCell(o.created_at),
    o.last_finding ?? '',
    requestText(o.request),
    withResolve
      ? el('button', {
          type: 'button',
          text: 'Resolve',
          'aria-label': `Resolve ${o.operation_id}`,
          onclick: () => openResolve(o),
        })
      : null,
  ]);
  return table(label, withResolve ? [...COLUMNS, RESOLVE] : COLUMNS, rows);
}
