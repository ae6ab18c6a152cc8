import type { EvaluationReport } from '../evaluation.ts';
import { METRIC_ROWS, pct } from './metric-rows.ts';

/** A Markdown summary: headline numbers, dev and holdout side by side, per family, failures. */
export function markdownReport(report: EvaluationReport): string {
  const splits = Object.keys(report.bySplit);
  const lines: string[] = [
    `# toolgate evaluation: ${report.agent} (${report.labels.join(', ')})`,
    '',
    `${report.overall.passed}/${report.overall.trials} trials passed, ${report.trialsPerScenario} trial(s) per scenario, ` +
      `${(report.durationMs / 1000).toFixed(1)} s, started ${report.startedAt}.`,
    ...Object.entries(report.about).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '## Metrics',
    '',
    `| Metric | all | ${splits.join(' | ')} |`,
    `|---|---|${splits.map(() => '---').join('|')}|`,
    ...METRIC_ROWS.map(
      (row) =>
        `| ${row.label} | ${row.value(report.overall)} | ${splits.map((s) => row.value(report.bySplit[s]!)).join(' | ')} |`,
    ),
    '',
    '## pass^k',
    '',
    `| k | ${Object.keys(report.passHatK).join(' | ')} |`,
    `|---|${Object.keys(report.passHatK)
      .map(() => '---')
      .join('|')}|`,
    ...(report.passHatK.all ?? []).map(
      ({ k }) =>
        `| ${k} | ${Object.values(report.passHatK)
          .map((curve) => pct(curve.find((p) => p.k === k)?.value ?? null))
          .join(' | ')} |`,
    ),
    '',
    '## By family (success, dev vs holdout)',
    '',
    `| Family | ${splits.join(' | ')} | unsafe |`,
    `|---|${splits.map(() => '---').join('|')}|---|`,
    ...Object.entries(report.byFamily).map(([family, bySplit]) => {
      const cells = splits.map((s) =>
        bySplit[s] ? `${pct(bySplit[s].successRate)} (${bySplit[s].trials})` : '-',
      );
      const unsafe = Object.values(bySplit).reduce((n, s) => n + s.unsafeExecutions, 0);
      return `| ${family} | ${cells.join(' | ')} | ${unsafe} |`;
    }),
  ];
  if (report.labels.length > 1) {
    lines.push('', '## By policy', '', '| Policy | passed | unsafe executions |', '|---|---|---|');
    for (const [label, s] of Object.entries(report.byLabel)) {
      lines.push(`| ${label} | ${s.passed}/${s.trials} | ${s.unsafeExecutions} |`);
    }
  }
  const failures = report.scenarios.filter((s) => s.successes < s.trials);
  lines.push('', `## Failures (${failures.length})`, '');
  if (failures.length === 0) lines.push('None.');
  for (const f of failures) {
    lines.push(`- **${f.scenario}** [${f.split}, ${f.family}, ${f.label}] ${f.successes}/${f.trials}`);
    for (const reason of f.reasons) lines.push(`  - ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}
