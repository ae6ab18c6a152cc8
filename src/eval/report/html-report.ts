import type { EvaluationReport } from '../evaluation.ts';
import { METRIC_ROWS, pct } from './metric-rows.ts';
import { escapeXml as esc, groupedBarChart, lineChart } from './svg-charts.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111}h1{font-size:22px}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}
th{background:#f5f5f5}.pass{color:#047857}.fail{color:#b91c1c;font-weight:600}figure{margin:12px 0}
figcaption{font-weight:600;margin-bottom:4px}svg .label,svg .value{font:11px system-ui,sans-serif;fill:#333}
svg .axis{stroke:#999}.charts{display:flex;flex-wrap:wrap;gap:24px}details{margin:4px 0}pre{white-space:pre-wrap;font-size:12px}`;

/** A self-contained HTML report: inline CSS and SVG charts, no scripts, opens offline. */
export function htmlReport(report: EvaluationReport): string {
  const splits = Object.keys(report.bySplit);
  const families = Object.keys(report.byFamily);
  const successChart = groupedBarChart(
    families.map((family) => ({
      label: family,
      values: splits.map((s) => report.byFamily[family]![s]?.successRate ?? null),
    })),
    { id: 'success-by-family', title: 'Task success by family', series: splits, max: 1, format: pct },
  );
  const passChart = lineChart(
    Object.entries(report.passHatK).map(([series, curve]) => ({
      series,
      points: curve.map((p) => ({ x: p.k, y: p.value })),
    })),
    { id: 'pass-hat-k', title: 'pass^k', series: Object.keys(report.passHatK), max: 1, format: pct },
  );
  const maxCalls = Math.max(
    1,
    ...families.flatMap((f) => splits.map((s) => report.byFamily[f]![s]?.callsPerTask ?? 0)),
  );
  const callsChart = groupedBarChart(
    families.map((family) => ({
      label: family,
      values: splits.map((s) => report.byFamily[family]![s]?.callsPerTask ?? null),
    })),
    {
      id: 'calls-per-task',
      title: 'Calls per task by family',
      series: splits,
      max: maxCalls,
      format: (v) => v.toFixed(2),
    },
  );
  const metricTable = `<table id="metrics"><tr><th>Metric</th><th>all</th>${splits.map((s) => `<th>${esc(s)}</th>`).join('')}</tr>${METRIC_ROWS.map(
    (row) =>
      `<tr><td>${esc(row.label)}</td><td>${esc(row.value(report.overall))}</td>${splits.map((s) => `<td>${esc(row.value(report.bySplit[s]!))}</td>`).join('')}</tr>`,
  ).join('')}</table>`;
  const policyTable =
    report.labels.length > 1
      ? `<h2>By policy</h2><table id="policies"><tr><th>Policy</th><th>Passed</th><th>Unsafe executions</th></tr>${Object.entries(
          report.byLabel,
        )
          .map(
            ([label, s]) =>
              `<tr><td>${esc(label)}</td><td>${s.passed}/${s.trials}</td><td>${s.unsafeExecutions}</td></tr>`,
          )
          .join('')}</table>`
      : '';
  const scenarioRows = report.scenarios
    .map((s) => {
      const ok = s.successes === s.trials;
      const reasons = s.reasons.length
        ? `<details><summary>why</summary><ul>${s.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></details>`
        : '';
      return `<tr><td>${esc(s.scenario)}</td><td>${esc(s.split)}</td><td>${esc(s.family)}</td><td>${esc(s.domain)}</td><td>${esc(s.label)}</td><td class="${ok ? 'pass' : 'fail'}">${s.successes}/${s.trials}</td><td>${s.unsafe}</td><td>${reasons}</td></tr>`;
    })
    .join('');
  const about = Object.entries(report.about)
    .map(([k, v]) => `<li>${esc(k)}: ${esc(v)}</li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolgate evaluation: ${esc(report.agent)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style></head><body>
<h1>toolgate evaluation: ${esc(report.agent)} (${esc(report.labels.join(', '))})</h1>
<p id="headline">${report.overall.passed}/${report.overall.trials} trials passed; ${report.overall.unsafeExecutions} unsafe executions;
${report.trialsPerScenario} trial(s) per scenario; ${(report.durationMs / 1000).toFixed(1)} s; started ${esc(report.startedAt)}.</p>
<ul>${about}</ul>
<div class="charts">${successChart}${passChart}${callsChart}</div>
<h2>Metrics (dev and holdout side by side)</h2>${metricTable}${policyTable}
<h2>Scenarios</h2><table id="scenarios"><tr><th>Scenario</th><th>Split</th><th>Family</th><th>Domain</th><th>Agent</th><th>Passed</th><th>Unsafe</th><th>Reasons</th></tr>${scenarioRows}</table>
</body></html>
`;
}
