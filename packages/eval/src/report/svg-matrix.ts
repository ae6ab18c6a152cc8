import { escapeXml } from './svg-charts.ts';

/** One cell of a matrix: what it says, and how it is shaded. */
export interface MatrixCell {
  readonly text: string;
  /** `none`: nothing to judge here; `pass`: judged and held; `fail`: broken (shaded by `strength`). */
  readonly tone: 'none' | 'pass' | 'fail';
  /** 0..1, how much of the row failed; deepens the red. */
  readonly strength: number;
  readonly title: string;
}

export interface MatrixOptions {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
}

const FILL = { none: '#f3f4f6', pass: '#bbf7d0' } as const;

/**
 * A table-shaped chart: rows (families) by columns (rules), each cell a count with a shade. It says
 * something in an all-pass run too: which rules were put to the test where, and that they held.
 */
export function matrixChart(
  rows: readonly string[],
  columns: readonly string[],
  cells: readonly (readonly MatrixCell[])[],
  options: MatrixOptions,
): string {
  const labelWidth = 220;
  const cellWidth = 78;
  const cellHeight = 22;
  const headerHeight = 120;
  // Room on the right for the last header, which leans that way.
  const width = labelWidth + columns.length * cellWidth + 70;
  const height = headerHeight + rows.length * cellHeight + 10;
  const parts: string[] = [];
  columns.forEach((column, c) => {
    const x = labelWidth + c * cellWidth + cellWidth / 2;
    parts.push(
      `<text transform="translate(${x},${headerHeight - 6}) rotate(-35)" class="label">${escapeXml(column)}</text>`,
    );
  });
  rows.forEach((row, r) => {
    const y = headerHeight + r * cellHeight;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" class="label">${escapeXml(row)}</text>`,
    );
    columns.forEach((column, c) => {
      const cell = cells[r]?.[c];
      if (!cell) return;
      const x = labelWidth + c * cellWidth;
      const fill =
        cell.tone === 'fail'
          ? `rgba(220,38,38,${(0.25 + 0.75 * cell.strength).toFixed(2)})`
          : FILL[cell.tone];
      parts.push(
        `<rect class="cell" data-row="${escapeXml(row)}" data-column="${escapeXml(column)}" data-tone="${cell.tone}" x="${x + 1}" y="${y + 1}" width="${cellWidth - 2}" height="${cellHeight - 2}" fill="${fill}"><title>${escapeXml(cell.title)}</title></rect>`,
        `<text x="${x + cellWidth / 2}" y="${y + 15}" text-anchor="middle" class="value">${escapeXml(cell.text)}</text>`,
      );
    });
  });
  return `<figure><figcaption>${escapeXml(options.title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" data-chart="${escapeXml(options.id)}" role="img" aria-label="${escapeXml(options.title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg><p class="caption">${escapeXml(options.caption)}</p></figure>`;
}
