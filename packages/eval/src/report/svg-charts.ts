/** Small inline SVG charts for the HTML report: no scripts, no fonts to fetch, no network. */

export interface BarGroup {
  readonly label: string;
  /** One value per series, in [0, max]. */
  readonly values: readonly (number | null)[];
}

export interface ChartOptions {
  readonly id: string;
  readonly title: string;
  readonly series: readonly string[];
  readonly max: number;
  readonly format: (value: number) => string;
  /** One colour per series; a default palette otherwise. */
  readonly colors?: readonly string[];
}

const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];
const colorOf = (options: ChartOptions, i: number) =>
  (options.colors ?? COLORS)[i % (options.colors ?? COLORS).length];

/**
 * Horizontal stacked bars: one row per group, one segment per series, counts written in the
 * segments. A row of a single series (an all-pass run) still reads: the count is on the bar.
 */
export function stackedBarChart(groups: readonly BarGroup[], options: ChartOptions): string {
  const rowHeight = 22;
  const labelWidth = 230;
  const plotWidth = 420;
  const top = legendHeight(options);
  const height = top + groups.length * rowHeight + 12;
  const parts: string[] = [];
  groups.forEach((group, g) => {
    const y = top + g * rowHeight;
    const total = group.values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" class="label">${escapeXml(group.label)}</text>`,
    );
    let x = labelWidth;
    group.values.forEach((value, s) => {
      if (!value) return;
      const width = options.max > 0 ? (value / options.max) * plotWidth : 0;
      const name = options.series[s] ?? '';
      parts.push(
        `<rect class="segment" data-series="${escapeXml(name)}" data-value="${value}" x="${x.toFixed(1)}" y="${y + 3}" width="${width.toFixed(1)}" height="16" fill="${colorOf(options, s)}"><title>${escapeXml(`${group.label}: ${name} ${options.format(value)}`)}</title></rect>`,
      );
      if (width >= 16) {
        parts.push(
          `<text x="${(x + width / 2).toFixed(1)}" y="${y + 15}" text-anchor="middle" class="inbar">${escapeXml(options.format(value))}</text>`,
        );
      }
      x += width;
    });
    parts.push(
      `<text x="${(x + 4).toFixed(1)}" y="${y + 15}" class="value">${escapeXml(options.format(total))}</text>`,
    );
  });
  return frame(options, labelWidth + plotWidth + 70, height, parts.join(''));
}

/** Horizontal grouped bars: one row per group, one bar per series. */
export function groupedBarChart(groups: readonly BarGroup[], options: ChartOptions): string {
  const rowHeight = 10 + options.series.length * 14;
  const labelWidth = 230;
  const plotWidth = 420;
  const top = legendHeight(options);
  const height = top + 10 + groups.length * rowHeight + 20;
  const parts: string[] = [];
  groups.forEach((group, g) => {
    const y0 = top + g * rowHeight;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y0 + rowHeight / 2}" text-anchor="end" class="label">${escapeXml(group.label)}</text>`,
    );
    group.values.forEach((value, s) => {
      if (value === null) return;
      const width = options.max > 0 ? Math.max(1, (value / options.max) * plotWidth) : 1;
      const y = y0 + 4 + s * 14;
      parts.push(
        `<rect class="bar" data-series="${escapeXml(options.series[s] ?? '')}" x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="11" fill="${colorOf(options, s)}"><title>${escapeXml(`${group.label} (${options.series[s]}): ${options.format(value)}`)}</title></rect>`,
        `<text x="${labelWidth + width + 4}" y="${y + 9}" class="value">${escapeXml(options.format(value))}</text>`,
      );
    });
  });
  return frame(options, labelWidth + plotWidth + 70, height, parts.join(''));
}

/** A line per series over x = 1..n (the pass^k curve). */
export function lineChart(
  lines: readonly { readonly series: string; readonly points: readonly { x: number; y: number }[] }[],
  options: ChartOptions,
): string {
  const width = 520;
  const height = 260;
  const left = 50;
  const top = 30;
  const plotW = width - left - 30;
  const plotH = height - top - 40;
  const maxX = Math.max(1, ...lines.flatMap((l) => l.points.map((p) => p.x)));
  const sx = (x: number) => left + (maxX === 1 ? plotW / 2 : ((x - 1) / (maxX - 1)) * plotW);
  const sy = (y: number) => top + plotH - (y / options.max) * plotH;
  const parts: string[] = [
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" class="axis"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" class="axis"/>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const y = sy(tick * options.max);
    parts.push(
      `<text x="${left - 6}" y="${y + 4}" text-anchor="end" class="label">${escapeXml(options.format(tick * options.max))}</text>`,
    );
  }
  for (let x = 1; x <= maxX; x += 1) {
    parts.push(`<text x="${sx(x)}" y="${top + plotH + 16}" text-anchor="middle" class="label">k=${x}</text>`);
  }
  lines.forEach((line, i) => {
    const color = colorOf(options, i);
    const points = line.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline class="curve" data-series="${escapeXml(line.series)}" fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`,
    );
    for (const p of line.points) {
      parts.push(
        `<circle class="point" cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3" fill="${color}"><title>${escapeXml(`${line.series} pass^${p.x} = ${options.format(p.y)}`)}</title></circle>`,
      );
    }
  });
  return frame(options, width, height, parts.join(''));
}

/** Legend entries flow left to right and wrap; each is as wide as its text. */
function legendLayout(options: ChartOptions): { x: number; y: number }[] {
  const places: { x: number; y: number }[] = [];
  let x = 10;
  let y = 8;
  for (const name of options.series) {
    const width = 24 + name.length * 6.5;
    if (x > 10 && x + width > 640) {
      x = 10;
      y += 16;
    }
    places.push({ x, y });
    x += width;
  }
  return places;
}

function legendHeight(options: ChartOptions): number {
  const places = legendLayout(options);
  return (places.at(-1)?.y ?? 8) + 22;
}

function frame(options: ChartOptions, width: number, height: number, body: string): string {
  const legend = legendLayout(options)
    .map(
      ({ x, y }, i) =>
        `<rect x="${x}" y="${y}" width="10" height="10" fill="${colorOf(options, i)}"/><text x="${x + 14}" y="${y + 9}" class="label">${escapeXml(options.series[i] ?? '')}</text>`,
    )
    .join('');
  return `<figure><figcaption>${escapeXml(options.title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" data-chart="${escapeXml(options.id)}" role="img" aria-label="${escapeXml(options.title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${legend}${body}</svg></figure>`;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
