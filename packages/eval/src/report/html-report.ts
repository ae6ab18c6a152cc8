import type { EvaluationReport } from '../evaluation.ts';
import { TRIAL_OUTCOMES, type TrialOutcome } from '../scoring.ts';
import { isolationWarning } from '../trial-isolation.ts';
import { failureMatrix } from './failure-matrix.ts';
import { comparisonSection, familyTable, metricsTable, policyTable, scenarioTable } from './html-tables.ts';
import { trialTranscript } from './html-transcript.ts';
import { pct } from './metric-rows.ts';
import { secondOpinionSection } from './second-opinion-section.ts';
import { escapeXml as esc, groupedBarChart, lineChart, stackedBarChart } from './svg-charts.ts';
import { matrixChart } from './svg-matrix.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111}h1{font-size:22px}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5}tr.side th{background:#e5e7eb}tr.total td{font-weight:600}.pass{color:#047857}.fail{color:#b91c1c;font-weight:600}
.better{background:#ecfdf5}.worse{background:#fef2f2}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}
svg .label,svg .value{font:11px system-ui,sans-serif;fill:#333}svg .inbar{font:10px system-ui,sans-serif;fill:#fff}svg .axis{stroke:#999}
.charts{display:flex;flex-wrap:wrap;gap:24px}.caption{font-size:12px;color:#555;max-width:640px}details{margin:4px 0}
pre{white-space:pre-wrap;font-size:12px;margin:4px 0}ol.events{padding-left:20px}ol.events li{margin:4px 0}
li.user b{color:#1d4ed8}li.agent b{color:#7c3aed}li.world b{color:#b45309}.status{font-weight:600}
.status-completed,.status-validated,.status-submitted{color:#047857}.status-rejected,.status-failed,.status-protocol{color:#b91c1c}
.status-outcome_unknown,.status-in_progress,.status-requires_confirmation{color:#b45309}
.violation{background:#fee2e2;color:#991b1b;border-radius:3px;padding:0 4px;font-size:12px}`;

/** The outcome segments of the family chart: who did what, in the order a reader weighs them. */
const OUTCOME_SERIES: Record<TrialOutcome, { label: string; color: string }> = {
  agent_ok: { label: 'agent did it right', color: '#10b981' },
  backend_stopped: { label: "backend stopped the agent's mistake", color: '#f59e0b' },
  agent_failed: { label: 'agent failed, nothing to stop', color: '#6b7280' },
  unsafe_effect: { label: 'unsafe effect', color: '#dc2626' },
};

/**
 * A self-contained HTML report: inline CSS and SVG charts, no scripts, opens offline. Charts carry
 * information at one trial and in an all-pass run (who did what per family, which rules were put to
 * the test where); pass^k appears only when there is more than one trial per scenario.
 */
export function htmlReport(report: EvaluationReport): string {
  const families = Object.keys(report.familyTotals);
  const splits = Object.keys(report.bySplit);
  const outcomeChart = stackedBarChart(
    families.map((family) => ({
      label: family,
      values: TRIAL_OUTCOMES.map((o) => report.familyTotals[family]!.outcomes[o]),
    })),
    {
      id: 'outcome-by-family',
      title: 'Trials by family: the agent vs the backend',
      series: TRIAL_OUTCOMES.map((o) => OUTCOME_SERIES[o].label),
      colors: TRIAL_OUTCOMES.map((o) => OUTCOME_SERIES[o].color),
      max: Math.max(1, ...families.map((f) => report.familyTotals[f]!.trials)),
      format: (v) => String(v),
    },
  );
  const matrix = failureMatrix(report.trials);
  const rulesChart = matrixChart(matrix.rows, matrix.columns, matrix.cells, {
    id: 'failures-by-rule',
    title: 'Failures by family and rule',
    caption:
      'Each rule cell: trials that broke the rule / trials where its situation came up (green: it held; – never came up; off: not in force). Task and unsafe cells: failing trials / all trials of the family.',
  });
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
  const passChart =
    report.trialsPerScenario > 1
      ? lineChart(
          Object.entries(report.passHatK).map(([series, curve]) => ({
            series,
            points: curve.map((p) => ({ x: p.k, y: p.value })),
          })),
          { id: 'pass-hat-k', title: 'pass^k', series: Object.keys(report.passHatK), max: 1, format: pct },
        )
      : '';
  const { overall } = report;
  const about = [
    ...Object.entries(report.about).map(([k, v]) => `<li>${esc(k)}: ${esc(v)}</li>`),
    ...(report.isolation?.modulesWithoutReset ?? []).map(
      (m) => `<li><strong>Not isolated</strong>: ${esc(isolationWarning(m))}.</li>`,
    ),
  ].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolgate evaluation: ${esc(report.agent)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style></head><body>
<h1>toolgate evaluation: ${esc(report.agent)} (${esc(report.labels.join(', '))})</h1>
<p id="headline">${overall.passed}/${overall.trials} trials passed (the agent did the task and kept every rule);${overall.errored > 0 ? ` ${overall.errored} errored (the model endpoint failed; not scored);` : ''} agent recovery ${pct(overall.agentRecovery)};
${overall.backendInterventions} backend interventions; ${overall.unsafeEffects} unsafe effects; ${overall.unsafeClaims} unsafe claims;
${report.trialsPerScenario} trial(s) per scenario; ${(report.durationMs / 1000).toFixed(1)} s; started ${esc(report.startedAt)}.</p>
<ul>${about}</ul>
<div class="charts">${outcomeChart}${rulesChart}${callsChart}${passChart}</div>
${report.comparison ? comparisonSection(report.comparison) : ''}
<h2>Metrics (dev and holdout side by side)</h2>${metricsTable(report)}
<h2>By family and split</h2>${familyTable(report)}
${report.labels.length > 1 ? `<h2>By policy</h2>${policyTable(report)}` : ''}
<h2>Scenarios</h2>${scenarioTable(report)}
${report.secondOpinion ? secondOpinionSection(report.secondOpinion) : ''}
<h2>Transcripts</h2><div id="transcripts">${report.trials.map(trialTranscript).join('\n')}</div>
</body></html>
`;
}
