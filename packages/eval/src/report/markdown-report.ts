import type { EvaluationReport } from '../evaluation.ts';
import { isolationWarning } from '../trial-isolation.ts';
import type { Comparison } from './comparison.ts';
import { failureMatrix } from './failure-matrix.ts';
import { FAMILY_COLUMNS, METRIC_ROWS, pct } from './metric-rows.ts';
import { secondOpinionLines } from './second-opinion-section.ts';

const table = (head: readonly string[], rows: readonly (readonly string[])[]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((cells) => `| ${cells.join(' | ')} |`),
];

/**
 * A Markdown summary: headline numbers, every metric with dev and holdout side by side, both sides
 * per family and split (and per policy), failures by family and rule, each failure with its reasons,
 * and the judge model's second opinion apart when there is one.
 */
export function markdownReport(report: EvaluationReport): string {
  const splits = Object.keys(report.bySplit);
  const { overall } = report;
  const lines: string[] = [
    `# toolgate evaluation: ${report.agent} (${report.labels.join(', ')})`,
    '',
    `${overall.passed}/${overall.trials} trials passed (task done, every rule kept, nothing unsafe); ` +
      `${overall.errored > 0 ? `${overall.errored} errored (the model endpoint failed; not scored); ` : ''}agent recovery ` +
      `${pct(overall.agentRecovery)}; ${overall.backendInterventions} backend interventions; ${overall.unsafeEffects} unsafe effects; ` +
      `${overall.unsafeClaims} unsafe claims. ${report.trialsPerScenario} trial(s) per scenario, ` +
      `${(report.durationMs / 1000).toFixed(1)} s, started ${report.startedAt}.`,
    ...Object.entries(report.about).map(([k, v]) => `- ${k}: ${v}`),
    ...(report.isolation?.modulesWithoutReset ?? []).map(
      (m) => `- **Not isolated**: ${isolationWarning(m)}.`,
    ),
    '',
    ...(report.comparison ? comparisonLines(report.comparison) : []),
    '## Metrics',
    '',
    ...table(
      ['Metric', 'side', 'all', ...splits, ...(report.baseline ? ['do-nothing baseline'] : [])],
      METRIC_ROWS.map((row) => [
        row.label,
        row.side,
        row.show(row.number(overall)),
        ...splits.map((s) => row.show(row.number(report.bySplit[s]!))),
        ...(report.baseline ? [row.show(row.number(report.baseline))] : []),
      ]),
    ),
    '',
    ...(report.baseline
      ? [
          `The do-nothing baseline answers without calling a tool: ${report.baseline.passed}/${report.baseline.trials} ` +
            `scenarios passed (${pct(report.baseline.successRate)}). Tool-result tokens are ${report.resultTokenMethod ?? 'estimated as bytes / 4'}.`,
        ]
      : []),
    '',
    '## By family and split',
    '',
    ...table(
      ['Family', 'Split', ...FAMILY_COLUMNS.map((c) => c.label)],
      Object.entries(report.byFamily).flatMap(([family, bySplit]) => [
        ...Object.entries(bySplit).map(([split, s]) => [
          family,
          split,
          ...FAMILY_COLUMNS.map((c) => c.value(s)),
        ]),
        ...(Object.keys(bySplit).length > 1
          ? [[family, 'all', ...FAMILY_COLUMNS.map((c) => c.value(report.familyTotals[family]!))]]
          : []),
      ]),
    ),
    '',
  ];
  if (report.labels.length > 1) {
    lines.push(
      '## By policy',
      '',
      ...table(
        ['Policy', ...FAMILY_COLUMNS.map((c) => c.label)],
        Object.entries(report.byLabel).map(([label, s]) => [label, ...FAMILY_COLUMNS.map((c) => c.value(s))]),
      ),
      '',
    );
  }
  const matrix = failureMatrix(report.trials);
  lines.push(
    '## Failures by family and rule',
    '',
    'Rule cells: trials that broke the rule / trials where its situation came up (`-` never came up, `off` not in force). Task and unsafe cells: failing trials / all trials.',
    '',
    ...table(
      ['Family', ...matrix.columns],
      matrix.rows.map((family, r) => [family, ...matrix.cells[r]!.map((c) => c.text.replace('–', '-'))]),
    ),
    '',
  );
  if (report.trialsPerScenario > 1) {
    const curves = Object.entries(report.passHatK);
    lines.push(
      '## pass^k',
      '',
      ...table(
        ['k', ...curves.map(([name]) => name)],
        (report.passHatK.all ?? []).map(({ k }) => [
          String(k),
          ...curves.map(([, curve]) => pct(curve.find((p) => p.k === k)?.value ?? null)),
        ]),
      ),
      '',
    );
  }
  const failures = report.scenarios.filter((s) => s.successes < s.trials);
  lines.push(`## Failures (${failures.length})`, '');
  if (failures.length === 0) lines.push('None.');
  for (const f of failures) {
    lines.push(`- **${f.scenario}** [${f.split}, ${f.family}, ${f.label}] ${f.successes}/${f.trials}`);
    for (const reason of f.reasons) lines.push(`  - ${reason}`);
  }
  const errored = report.trials.filter((t) => t.errored !== undefined);
  if (errored.length > 0) {
    lines.push('', `## Errored trials (${errored.length}, not scored)`, '');
    for (const t of errored) lines.push(`- **${t.scenario}** [${t.label}] trial ${t.trial}: ${t.errored}`);
  }
  if (report.secondOpinion) lines.push('', ...secondOpinionLines(report.secondOpinion));
  return `${lines.join('\n')}\n`;
}

function comparisonLines(comparison: Comparison): string[] {
  const changed = comparison.metrics.filter((m) => m.changed);
  const mark = (better: boolean | null) => (better === null ? '' : better ? ' (better)' : ' (worse)');
  return [
    `## Compared with ${comparison.against.file}`,
    '',
    `${comparison.against.agent} run started ${comparison.against.startedAt}: ${comparison.scenarios.length} scenario result(s) changed, ` +
      `${comparison.unchangedScenarios} unchanged, ${changed.length} metric value(s) moved.`,
    '',
    ...comparison.scenarios.flatMap((s) => [
      `- **${s.scenario}** [${s.label}] ${s.before} -> ${s.after}`,
      ...(s.flipped ?? []).map(
        (f) => `  - trial ${f.trial}: ${f.before ? 'passed' : 'failed'} -> ${f.after ? 'passed' : 'failed'}`,
      ),
      ...s.newReasons.map((r) => `  - new: ${r}`),
      ...s.goneReasons.map((r) => `  - gone: ${r}`),
    ]),
    '',
    ...(changed.length
      ? table(
          ['Scope', 'Metric', 'Before', 'After'],
          changed.map((m) => [m.scope, m.metric, m.before, `${m.after}${mark(m.better)}`]),
        )
      : ['No metric moved.']),
    '',
    ...(comparison.versions
      ? [
          'Served contract versions differ between the runs:',
          '',
          ...table(
            ['Tool', 'Version', 'Run', 'Trials', 'Tool selection', 'Success'],
            comparison.versions.map((v) => [
              v.tool,
              v.version,
              v.run,
              String(v.runs),
              percent(v.selectionRate),
              percent(v.successRate),
            ]),
          ),
          '',
        ]
      : []),
  ];
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
