import type { EvaluationReport } from '../evaluation.ts';
import type { Comparison } from './comparison.ts';
import { trialAnchor } from './html-transcript.ts';
import { FAMILY_COLUMNS, METRIC_ROWS, type MetricSide } from './metric-rows.ts';
import { escapeXml as esc } from './svg-charts.ts';

const SIDES: Record<MetricSide, string> = {
  agent: 'What the agent did',
  backend: 'What the backend had to stop',
  cost: 'What a task cost',
};

/**
 * Every metric, all trials and each split side by side, grouped by whose doing it measures, with the
 * do-nothing baseline's column where the run has one.
 */
export function metricsTable(report: EvaluationReport): string {
  const splits = Object.keys(report.bySplit);
  const baseline = report.baseline;
  const head = `<tr><th>Metric</th><th>all</th>${splits.map((s) => `<th>${esc(s)}</th>`).join('')}${baseline ? '<th>do-nothing baseline</th>' : ''}</tr>`;
  const rows = (Object.keys(SIDES) as MetricSide[]).flatMap((side) => [
    `<tr class="side"><th colspan="${splits.length + (baseline ? 3 : 2)}">${esc(SIDES[side])}</th></tr>`,
    ...METRIC_ROWS.filter((row) => row.side === side).map(
      (row) =>
        `<tr><td>${esc(row.label)}</td><td>${esc(row.show(row.number(report.overall)))}</td>${splits.map((s) => `<td>${esc(row.show(row.number(report.bySplit[s]!)))}</td>`).join('')}${baseline ? `<td class="baseline">${esc(row.show(row.number(baseline)))}</td>` : ''}</tr>`,
    ),
  ]);
  return `<table id="metrics">${head}${rows.join('')}</table>`;
}

/** Per family, each split and the family's total: the agent's side and the backend's side. */
export function familyTable(report: EvaluationReport): string {
  const head = `<tr><th>Family</th><th>Split</th>${FAMILY_COLUMNS.map((c) => `<th>${esc(c.label)}</th>`).join('')}</tr>`;
  const rows = Object.entries(report.byFamily).flatMap(([family, bySplit]) => {
    const splits = Object.entries(bySplit);
    const lines = splits.map(
      ([split, score]) =>
        `<tr data-family="${esc(family)}" data-split="${esc(split)}"><td>${esc(family)}</td><td>${esc(split)}</td>${FAMILY_COLUMNS.map((c) => `<td>${esc(c.value(score))}</td>`).join('')}</tr>`,
    );
    const total = report.familyTotals[family];
    if (splits.length > 1 && total) {
      lines.push(
        `<tr class="total" data-family="${esc(family)}" data-split="all"><td>${esc(family)}</td><td>all</td>${FAMILY_COLUMNS.map((c) => `<td>${esc(c.value(total))}</td>`).join('')}</tr>`,
      );
    }
    return lines;
  });
  return `<table id="families">${head}${rows.join('')}</table>`;
}

/** Per agent label (an adversarial policy): what it got away with and what the backend stopped. */
export function policyTable(report: EvaluationReport): string {
  const head = `<tr><th>Policy</th>${FAMILY_COLUMNS.map((c) => `<th>${esc(c.label)}</th>`).join('')}</tr>`;
  const rows = Object.entries(report.byLabel).map(
    ([label, score]) =>
      `<tr data-policy="${esc(label)}"><td>${esc(label)}</td>${FAMILY_COLUMNS.map((c) => `<td>${esc(c.value(score))}</td>`).join('')}</tr>`,
  );
  return `<table id="policies">${head}${rows.join('')}</table>`;
}

/** Each scenario (per agent label), its result, what the backend stopped, and a link to its transcripts. */
export function scenarioTable(report: EvaluationReport): string {
  const rows = report.scenarios.map((s) => {
    const ok = s.successes === s.trials;
    const reasons = s.reasons.length
      ? `<details><summary>why</summary><ul>${s.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></details>`
      : '';
    const link = `<a href="#${trialAnchor({ scenario: s.scenario, label: s.label, trial: 1 })}">transcript</a>`;
    return `<tr><td>${esc(s.scenario)}</td><td>${esc(s.split)}</td><td>${esc(s.family)}</td><td>${esc(s.domain)}</td><td>${esc(s.label)}</td><td class="${ok ? 'pass' : 'fail'}">${s.successes}/${s.trials}</td><td>${s.backendInterventions}</td><td>${s.unsafe}</td><td>${esc(s.rulesBroken.join(', '))}</td><td>${reasons}</td><td>${link}</td></tr>`;
  });
  return `<table id="scenarios"><tr><th>Scenario</th><th>Split</th><th>Family</th><th>Domain</th><th>Agent</th><th>Passed</th><th>Backend interventions</th><th>Unsafe effects</th><th>Rules broken</th><th>Reasons</th><th></th></tr>${rows.join('')}</table>`;
}

/** What moved since the earlier run: changed metrics per scope, changed scenarios with their reasons. */
export function comparisonSection(comparison: Comparison): string {
  const changed = comparison.metrics.filter((m) => m.changed);
  const mark = (better: boolean | null) =>
    better === null ? '' : better ? ' class="better"' : ' class="worse"';
  const metricRows = changed
    .map(
      (m) =>
        `<tr${mark(m.better)}><td>${esc(m.scope)}</td><td>${esc(m.metric)}</td><td>${esc(m.before)}</td><td>${esc(m.after)}</td></tr>`,
    )
    .join('');
  const scenarioRows = comparison.scenarios
    .map(
      (s) =>
        `<tr><td>${esc(s.scenario)}</td><td>${esc(s.label)}</td><td>${esc(s.before)}</td><td>${esc(s.after)}</td><td><ul>${[
          ...(s.flipped ?? []).map(
            (f) =>
              `<li class="${f.after ? 'better' : 'worse'}">trial ${f.trial}: ${f.before ? 'passed' : 'failed'} -> ${f.after ? 'passed' : 'failed'}</li>`,
          ),
          ...s.newReasons.map((r) => `<li class="worse">new: ${esc(r)}</li>`),
          ...s.goneReasons.map((r) => `<li class="better">gone: ${esc(r)}</li>`),
        ].join('')}</ul></td></tr>`,
    )
    .join('');
  return `<section id="comparison"><h2>Compared with ${esc(comparison.against.file)}</h2>
<p>${esc(comparison.against.agent)} run started ${esc(comparison.against.startedAt)}; ${comparison.scenarios.length} scenario result(s) changed, ${comparison.unchangedScenarios} unchanged; ${changed.length} metric value(s) moved.</p>
<table id="scenario-changes"><tr><th>Scenario</th><th>Agent</th><th>Before</th><th>After</th><th>Reasons</th></tr>${scenarioRows || '<tr><td colspan="5">No scenario changed.</td></tr>'}</table>
<table id="metric-changes"><tr><th>Scope</th><th>Metric</th><th>Before</th><th>After</th></tr>${metricRows || '<tr><td colspan="4">No metric moved.</td></tr>'}</table>${versionTable(comparison)}</section>`;
}

/** Each served contract version's trials, selection and success in each run, when the runs were served differently. */
function versionTable(comparison: Comparison): string {
  if (!comparison.versions) return '';
  const share = (n: number) => `${Math.round(n * 1000) / 10}%`;
  const rows = comparison.versions
    .map(
      (v) =>
        `<tr><td>${esc(v.tool)}</td><td>${esc(v.version)}</td><td>${esc(v.run)}</td><td>${v.runs}</td><td>${share(v.selectionRate)}</td><td>${share(v.successRate)}</td></tr>`,
    )
    .join('');
  return `
<p>Served contract versions differ between the runs:</p>
<table id="version-changes"><tr><th>Tool</th><th>Version</th><th>Run</th><th>Trials</th><th>Tool selection</th><th>Success</th></tr>${rows}</table>`;
}
