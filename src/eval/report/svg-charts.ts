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
}

const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];

/** Horizontal grouped bars: one row per group, one bar per series. */
export function groupedBarChart(groups: readonly BarGroup[], options: ChartOptions): string {
  const rowHeight = 10 + options.series.length * 14;
  const labelWidth = 230;
  const plotWidth = 420;
  const height = 40 + groups.length * rowHeight + 20;
  const parts: string[] = [];
  groups.forEach((group, g) => {
    const y0 = 30 + g * rowHeight;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y0 + rowHeight / 2}" text-anchor="end" class="label">${escapeXml(group.label)}</text>`,
    );
    group.values.forEach((value, s) => {
      if (value === null) return;
      const width = options.max > 0 ? Math.max(1, (value / options.max) * plotWidth) : 1;
      const y = y0 + 4 + s * 14;
      parts.push(
        `<rect class="bar" data-series="${escapeXml(options.series[s] ?? '')}" x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="11" fill="${COLORS[s % COLORS.length]}"><title>${escapeXml(`${group.label} (${options.series[s]}): ${options.format(value)}`)}</title></rect>`,
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
    const color = COLORS[i % COLORS.length];
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

function frame(options: ChartOptions, width: number, height: number, body: string): string {
  const legend = options.series
    .map(
      (s, i) =>
        `<rect x="${10 + i * 110}" y="8" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/><text x="${24 + i * 110}" y="17" class="label">${escapeXml(s)}</text>`,
    )
    .join('');
  return `<figure><figcaption>${escapeXml(options.title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" data-chart="${escapeXml(options.id)}" role="img" aria-label="${escapeXml(options.title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${legend}${body}</svg></figure>`;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
