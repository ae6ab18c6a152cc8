import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationReport } from '../evaluation.ts';
import { htmlReport } from './html-report.ts';
import { markdownReport } from './markdown-report.ts';

export interface WrittenReports {
  readonly json: string;
  readonly markdown: string;
  readonly html: string;
}

/** Writes results.json, summary.md and report.html into the directory. */
export function writeReports(report: EvaluationReport, dir: string): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const paths = {
    json: join(dir, 'results.json'),
    markdown: join(dir, 'summary.md'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(paths.markdown, markdownReport(report));
  writeFileSync(paths.html, htmlReport(report));
  return paths;
}
