/**
 * The landing page: what waits for the signed-in person, counted — operations waiting for a review
 * decision, calls parked for an approver's yes, and exceptions in force that end within 24 hours — each
 * with the oldest few and a link to its page. What the person asked for themselves is not counted (four
 * eyes: someone else decides it); a count the token's authority (GET /operator/v1/me) does not reach
 * says which scope it needs, and is not asked for.
 */
import { type Cell, el, empty, heading } from '../dom.ts';
import { targetText, utc } from '../format.ts';
import { operationLink } from '../operation-table.ts';
import { call, type ExceptionEntry, type OperatorAnswers, refusalText } from '../operator-api.ts';

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
  /** What is left out of the count, said below it. */
  readonly note?: string | undefined;
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
      el(
        'ul',
        { class: 'items' },
        ...t.items.map((item) => {
          const li = el('li', {}, item as Node | string);
          li.title = li.textContent ?? '';
          return li;
        }),
      ),
    );
  if (t.note) section.append(el('p', { class: 'muted', text: t.note }));
  section.append(el('p', {}, el('a', { href: t.href, text: t.link })));
  return section;
}

/** An answer the token may ask for, or null when its authority does not reach it (no request is sent). */
async function readIf<T>(allowed: boolean, path: string) {
  if (!allowed) return null;
  const reply = await call<T>('GET', path);
  return reply.status === 200 ? reply.data : null;
}

const mine = (n: number, what: string) =>
  n === 0
    ? undefined
    : `${n} more ${n === 1 ? 'is' : 'are'} your own ${what}: another person must decide ${n === 1 ? 'it' : 'them'}.`;

export async function showHome(view: HTMLElement) {
  const now = Date.now();
  const me = await call<OperatorAnswers['me']>('GET', '/operator/v1/me');
  if (me.status !== 200) {
    view.append(...heading('Waiting for you'), el('p', { text: refusalText(me.data, me.status) }));
    return;
  }
  const { subject, may } = me.data;
  const [needsReview, unknown, confirmations, exceptions] = await Promise.all([
    readIf<OperatorAnswers['operations']>(
      may.review,
      '/operator/v1/operations?status=needs_review&limit=200',
    ),
    readIf<OperatorAnswers['operations']>(
      may.review,
      '/operator/v1/operations?status=outcome_unknown&limit=200',
    ),
    readIf<OperatorAnswers['confirmations']>(may.confirm, '/operator/v1/confirmations'),
    readIf<OperatorAnswers['exceptions']>(
      may.read_operations || may.grant_exceptions.length > 0,
      '/operator/v1/exceptions?active=true&limit=200',
    ),
  ]);
  // Four eyes: what the signed-in person asked for themselves waits for someone else.
  const queue = needsReview && unknown ? [...needsReview.operations, ...unknown.operations] : null;
  const reviews = queue?.filter((o) => o.caller !== subject) ?? [];
  const parked = confirmations?.confirmations ?? null;
  const waiting = parked?.filter((c) => c.may_answer) ?? [];
  const own = parked?.filter((c) => c.requester === subject).length ?? 0;
  const beyondScope = (parked?.length ?? 0) - waiting.length - own;
  const expiring = (exceptions?.exceptions ?? [])
    .filter((x) => x.state === 'active' && Date.parse(x.ends_at) - now <= EXPIRY_HORIZON_MS)
    .sort((a, b) => Date.parse(a.ends_at) - Date.parse(b.ends_at));
  const tallies: Tally[] = [
    {
      id: 'reviews',
      title: 'Reviews waiting',
      count: queue ? reviews.length : null,
      more: Boolean(needsReview?.next_cursor || unknown?.next_cursor),
      note: queue ? mine(queue.length - reviews.length, 'calls') : undefined,
      none: 'No operation waits for a review decision.',
      refused: 'This token may not decide reviews (it needs operations:review).',
      href: '#queue',
      link: 'Open the review queue',
      items: reviews
        .slice(0, SHOWN)
        .map((o) => el('span', {}, operationLink(o.operation_id), ` ${o.tool}, ${o.status}`)),
    },
    {
      id: 'confirmations',
      title: 'Confirmations waiting',
      count: parked ? waiting.length : null,
      note: parked
        ? [
            mine(own, 'requests'),
            beyondScope > 0
              ? `${beyondScope} more need${beyondScope === 1 ? 's' : ''} an approver scope this token lacks.`
              : undefined,
          ]
            .filter(Boolean)
            .join(' ') || undefined
        : undefined,
      none: 'No call waits for an approver.',
      refused: 'This token may not answer confirmations (it needs operations:confirm).',
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
      count: exceptions ? expiring.length : null,
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
      `Signed in as ${subject} (tenant ${me.data.tenant}). ${
        total === 0
          ? 'Nothing waits for you right now: no review, no confirmation, no exception about to end.'
          : `${total} item${total === 1 ? '' : 's'} wait for you.`
      }`,
    ),
    el('div', { class: 'cards' }, ...tallies.map(card)),
  );
}
