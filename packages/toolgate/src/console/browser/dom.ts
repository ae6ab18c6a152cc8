/**
 * The console's DOM helpers: elements built with textContent only (no operation datum is ever parsed
 * as HTML), the status line, tables whose long cells truncate with their full text as a tooltip (and
 * stack as labelled cards on a narrow screen), labelled fields, and empty states that say what would
 * be listed.
 */
import type { ElementFactory } from './charts.ts';

export type { ElementFactory };

/** A form control read by name: an input, a textarea, a select or a group of radio buttons. */
export interface NamedControl {
  value: string;
}

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export const control = (form: HTMLFormElement, name: string) =>
  form.elements.namedItem(name) as NamedControl | null;

export const el: ElementFactory = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = String(v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v as EventListener);
    else node.setAttribute(k, String(v));
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
};

/** The page's status line (a live region): what the last action did. */
export function say(text: string) {
  $('status').textContent = text;
}

/** Asks the console to draw the current view again (after an action changed what it shows). */
export function reload() {
  window.dispatchEvent(new Event('toolgate:reload'));
}

export type Cell = Node | string | number | null | undefined;

/**
 * A column: its header and its width class (`id`, `tool`, `who`, `state`, `time`, `stamp` (with
 * seconds), `num`, `action`;
 * none shares what is left). `wrap` cells show all their text (lists of fields, questions).
 */
export interface Column {
  readonly label: string;
  readonly width?: 'id' | 'tool' | 'who' | 'state' | 'time' | 'stamp' | 'num' | 'action';
  readonly wrap?: boolean;
  /** A header only for assistive technology (an action column needs no visible one). */
  readonly hidden?: boolean;
}

/** Text longer than this is cut in its cell; the cell's tooltip holds all of it. */
const SHORT = 18;

function cell(column: Column, content: Cell) {
  const td = el('td', { 'data-label': column.label });
  if (column.wrap) td.classList.add('wrap');
  if (content instanceof Node) {
    td.append(content);
    const text = content.textContent ?? '';
    if (!column.wrap && text.length > SHORT) td.title = text;
  } else {
    const text = String(content ?? '');
    td.textContent = text;
    if (!column.wrap && text.length > SHORT) td.title = text;
  }
  return td;
}

/** A table of fixed column widths; `label` names it for assistive technology. */
export function table(label: string, columns: readonly Column[], rows: readonly (readonly Cell[])[]) {
  return el(
    'div',
    { class: 'table' },
    el(
      'table',
      { 'aria-label': label },
      el('colgroup', {}, ...columns.map((c) => el('col', c.width ? { class: `w-${c.width}` } : {}))),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...columns.map((c) =>
            c.hidden
              ? el('th', { scope: 'col' }, el('span', { class: 'sr-only', text: c.label }))
              : el('th', { scope: 'col', text: c.label }),
          ),
        ),
      ),
      el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...columns.map((c, i) => cell(c, cells[i]))))),
    ),
  );
}

/** What an empty list would hold, said where the list would be. */
export function empty(text: string) {
  return el('p', { class: 'empty', text });
}

/** Labelled fields, in order; a value that is a node is shown as it is. */
export function fields(entries: readonly (readonly [string, Cell])[], className = 'fields') {
  return el(
    'dl',
    { class: className },
    ...entries.flatMap(([label, value]) => [
      el('dt', { text: label }),
      el('dd', {}, value instanceof Node ? value : String(value ?? '')),
    ]),
  );
}

/** A status as a badge, coloured by what it asks of a person. */
export function badge(status: string) {
  const words = status.split('_');
  const node = el('span', { class: `badge badge-${status}` });
  words.forEach((word, i) => {
    node.append(i < words.length - 1 ? `${word}_` : word);
    if (i < words.length - 1) node.append(el('wbr'));
  });
  return node;
}

/** A view's heading (the one h2 the view starts with) and its lead sentence. */
export function heading(text: string, lead?: string) {
  const nodes: HTMLElement[] = [el('h2', { text })];
  if (lead) nodes.push(el('p', { class: 'lead', text: lead }));
  return nodes;
}
