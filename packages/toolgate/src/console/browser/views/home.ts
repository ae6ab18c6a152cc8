/**
 * The landing page: what waits for the signed-in person, counted — operations waiting for a review
 * decision, calls parked for an approver's yes, and exceptions in force that end within 24 hours — each
 * with the oldest few and a link to its page. A count this token may not read says so instead.
 */
import { type Cell, el, empty, heading } from '../dom.ts';
import { targetText, utc } from '../format.ts';
import { operationLink } from '../operation-table.ts';
import { call, type ExceptionEntry, type OperatorAnswers } from '../operator-api.ts';

/** How far ahead an exception's end counts as about to expire. */
const EXPIRY_HORIZON_MS = 24 * 3_600_000;
/** How many of each the landing page names. */
const SHOWN = 5;

interface Tally {
  readonly id: string;
  readonly title: string;
  /** null: this token may not read it. */
  readonly count: number | null;
  /** More than counted (a page was full). */
  readonly more?: boolean;
  readonly none: string;
  readonly refused: string;
  readonly href: string;
  readonly link: string;
  readonly items: readonly Cell[];
}

function card(t: Tally) {
  const titleId = `waiting-${t.id}`;
  const section = el(
    'section',
    { class: 'card', 'aria-labelledby': titleId },
    el('h3', { id: titleId, text: t.title }),
  );
  if (t.count === null) {
    section.append(
      el('p', { class: 'count muted', text: '–' }),
      el('p', { class: 'muted', text: t.refused }),
    );
    return section;
  }
  section.append(
    el('p', { class: t.count > 0 ? 'count' : 'count muted', text: `${t.count}${t.more ? '+' : ''}` }),
  );
  if (t.count === 0) section.append(empty(t.none));
  else
    section.append(
      el('ul', { class: 'items' }, ...t.items.map((item) => el('li', {}, item as Node | string))),
    );
  section.append(el('p', {}, el('a', { href: t.href, text: t.link })));
  return section;
}

export async function showHome(view: HTMLElement) {
  const now = Date.now();
  const [needsReview, unknown, confirmations, exceptions] = await Promise.all([
    call<OperatorAnswers['operations']>('GET', '/operator/v1/operations?status=needs_review&limit=200'),
    call<OperatorAnswers['operations']>('GET', '/operator/v1/operations?status=outcome_unknown&limit=200'),
    call<OperatorAnswers['confirmations']>('GET', '/operator/v1/confirmations'),
    call<OperatorAnswers['exceptions']>('GET', '/operator/v1/exceptions?active=true&limit=200'),
  ]);
  const reviewable = needsReview.status === 200 && unknown.status === 200;
  const reviews = reviewable ? [...needsReview.data.operations, ...unknown.data.operations] : [];
  const waiting = confirmations.status === 200 ? confirmations.data.confirmations : [];
  const expiring = (exceptions.status === 200 ? exceptions.data.exceptions : [])
    .filter((x) => x.state === 'active' && Date.parse(x.ends_at) - now <= EXPIRY_HORIZON_MS)
    .sort((a, b) => Date.parse(a.ends_at) - Date.parse(b.ends_at));
  const tallies: Tally[] = [
    {
      id: 'reviews',
      title: 'Reviews waiting',
      count: reviewable ? reviews.length : null,
      more: Boolean(needsReview.data.next_cursor || unknown.data.next_cursor),
      none: 'No operation waits for a review decision.',
      refused:
        'This token may not read operations (it needs operations:review, or operations:read as an operator).',
      href: '#queue',
      link: 'Open the review queue',
      items: reviews
        .slice(0, SHOWN)
        .map((o) => el('span', {}, operationLink(o.operation_id), ` ${o.tool}, ${o.status}`)),
    },
    {
      id: 'confirmations',
      title: 'Confirmations waiting',
      count: confirmations.status === 200 ? waiting.length : null,
      none: 'No call waits for an approver.',
      refused: 'This token may not see confirmations (it needs operations:confirm).',
      href: '#confirmations',
      link: 'Open the confirmations',
      items: waiting
        .slice(0, SHOWN)
        .map((c) =>
          el('span', {}, operationLink(c.operation_id), ` ${c.message} (expires ${utc(c.expires_at)})`),
        ),
    },
    {
      id: 'exceptions',
      title: 'Exceptions ending within 24 hours',
      count: exceptions.status === 200 ? expiring.length : null,
      none: 'No exception in force ends within 24 hours.',
      refused: 'This token may not see exceptions (it needs a scope that grants them).',
      href: '#exceptions',
      link: 'Open the exceptions',
      items: expiring
        .slice(0, SHOWN)
        .map((x: ExceptionEntry) => `${x.kind} for ${targetText(x.target)}: ends ${utc(x.ends_at)}`),
    },
  ];
  const total = tallies.reduce((sum, t) => sum + (t.count ?? 0), 0);
  view.append(
    ...heading(
      'Waiting for you',
      total === 0
        ? 'Nothing waits for you right now: no review, no confirmation, no exception about to end.'
        : `${total} item${total === 1 ? '' : 's'} wait for you.`,
    ),
    el('div', { class: 'cards' }, ...tallies.map(card)),
  );
}
