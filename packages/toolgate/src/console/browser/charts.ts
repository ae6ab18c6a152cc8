/**
 * The console's small charts, a browser module the console's script imports: the review backlog and
 * the calls by status over the last hours, drawn as inline SVG from GET /operator/v1/activity.
 * Elements and attributes only (presentation attributes, no inline style, no markup parsed), so the
 * page's content security policy holds; every bar carries its numbers as a tooltip and the chart as a
 * whole a text label.
 */
import type { OperatorAnswers, OperatorCall } from './operator-api.ts';

/** Attributes of an element the console builds: `text` is its text, `on…` a listener. */
export type ElementAttributes = Record<string, string | ((event: Event) => void)>;
/** Builds an HTML element with its attributes and children (the console's one way to make DOM). */
export type ElementFactory = (
  tag: string,
  attrs?: ElementAttributes,
  ...children: (Node | string | null | undefined)[]
) => HTMLElement;

interface Bucket {
  readonly label: string;
  readonly values: Readonly<Record<string, number>>;
}

interface Axis {
  readonly from: string;
  readonly to: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 480;
const HEIGHT = 110;
const AXIS = 16;
const COLORS: Readonly<Record<string, string>> = {
  completed: '#2e7d32',
  validated: '#66bb6a',
  submitted: '#0277bd',
  requires_confirmation: '#f9a825',
  rejected: '#795548',
  outcome_unknown: '#ef6c00',
  needs_review: '#8e24aa',
  in_progress: '#78909c',
  awaiting_confirmation: '#5c6bc0',
  failed: '#c62828',
};
const ORDER = Object.keys(COLORS);

function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) node.append(child);
  return node;
}

function svgText(tag: string, attrs: Record<string, string | number>, text: string): SVGElement {
  const node = svg(tag, attrs);
  node.textContent = text;
  return node;
}

const clock = (iso: string) => iso.slice(11, 16);

/** Stacked bars, one per bucket and one segment per series, scaled to the largest bar. */
function barChart(label: string, buckets: readonly Bucket[], series: readonly string[], axis: Axis) {
  const totals = buckets.map((b) => series.reduce((sum, s) => sum + (b.values[s] ?? 0), 0));
  const top = Math.max(1, ...totals);
  const step = WIDTH / buckets.length;
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT + AXIS}`,
      width: WIDTH,
      height: HEIGHT + AXIS,
      role: 'img',
      'aria-label': label,
      class: 'chart',
    },
    svgText('title', {}, label),
  );
  buckets.forEach((bucket, i) => {
    const bar = svg(
      'g',
      { 'data-bucket': bucket.label, 'data-total': totals[i]! },
      svgText(
        'title',
        {},
        `${bucket.label}: ${series.map((s) => `${s} ${bucket.values[s] ?? 0}`).join(', ')}`,
      ),
    );
    // An invisible full-height target, so an empty bucket still has its tooltip.
    bar.append(svg('rect', { x: i * step, y: 0, width: step, height: HEIGHT, fill: 'transparent' }));
    let y = HEIGHT;
    for (const s of series) {
      const count = bucket.values[s] ?? 0;
      if (count === 0) continue;
      const height = (count / top) * (HEIGHT - 12);
      y -= height;
      bar.append(
        svg('rect', {
          x: i * step + 1,
          y,
          width: Math.max(1, step - 2),
          height,
          fill: COLORS[s] ?? '#9e9e9e',
          'data-series': s,
          'data-count': count,
        }),
      );
    }
    chart.append(bar);
  });
  chart.append(
    svg('line', { x1: 0, y1: HEIGHT, x2: WIDTH, y2: HEIGHT, stroke: 'currentColor', 'stroke-opacity': 0.4 }),
    svgText('text', { x: 2, y: 10, 'font-size': 10, fill: 'currentColor' }, `max ${top}`),
    svgText('text', { x: 0, y: HEIGHT + 12, 'font-size': 10, fill: 'currentColor' }, axis.from),
    svgText(
      'text',
      { x: WIDTH, y: HEIGHT + 12, 'font-size': 10, fill: 'currentColor', 'text-anchor': 'end' },
      axis.to,
    ),
  );
  return chart;
}

function legend(el: ElementFactory, series: readonly string[]) {
  return el(
    'ul',
    { class: 'legend' },
    ...series.map((s) =>
      el(
        'li',
        {},
        svg(
          'svg',
          { width: 10, height: 10, 'aria-hidden': 'true' },
          svg('rect', { width: 10, height: 10, fill: COLORS[s] ?? '#9e9e9e' }),
        ),
        ` ${s}`,
      ),
    ),
  );
}

function figure(
  el: ElementFactory,
  title: string,
  label: string,
  buckets: readonly Bucket[],
  series: readonly string[],
  axis: Axis,
) {
  return el(
    'figure',
    {},
    el('figcaption', { text: title }),
    barChart(label, buckets, series, axis),
    legend(el, series),
  );
}

/** The activity section of the review queue page: what the backlog and the calls did over the window. */
export async function activitySection(
  call: OperatorCall,
  el: ElementFactory,
  hours = 24,
): Promise<HTMLElement> {
  const { status, data } = await call<OperatorAnswers['activity']>(
    'GET',
    `/operator/v1/activity?hours=${hours}`,
  );
  const section = el(
    'section',
    { class: 'activity', 'aria-labelledby': 'activity-title' },
    el('h2', { id: 'activity-title', text: `Last ${hours} hours` }),
  );
  if (status !== 200) {
    section.append(el('p', { text: `Activity is not available to this token (${status}).` }));
    return section;
  }
  const now = data.backlog.at(-1) ?? { needs_review: 0, outcome_unknown: 0 };
  const axis = { from: `${clock(data.from)} UTC`, to: 'now' };
  const backlog = data.backlog.map((p) => ({
    label: `${clock(p.at)} UTC`,
    values: { needs_review: p.needs_review, outcome_unknown: p.outcome_unknown },
  }));
  const statuses = [...new Set(data.calls.flatMap((b) => Object.keys(b.counts)))].sort(
    (a, b) => (ORDER.indexOf(a) >>> 0) - (ORDER.indexOf(b) >>> 0),
  );
  const calls = data.calls.map((b) => ({ label: `${clock(b.from)}–${clock(b.to)} UTC`, values: b.counts }));
  const total = data.calls.reduce((sum, b) => sum + Object.values(b.counts).reduce((a, n) => a + n, 0), 0);
  section.append(
    el(
      'div',
      { class: 'charts' },
      figure(
        el,
        'Review backlog',
        `Review backlog over the last ${hours} hours; now ${now.needs_review} need review and ${now.outcome_unknown} have an unknown outcome`,
        backlog,
        ['needs_review', 'outcome_unknown'],
        axis,
      ),
      figure(
        el,
        'Calls by status',
        `${total} audited calls over the last ${hours} hours, by status`,
        calls,
        statuses,
        axis,
      ),
    ),
  );
  return section;
}
