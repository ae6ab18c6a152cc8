import type { SecondOpinionSummary } from '../second-opinion-summary.ts';
import { pct } from './metric-rows.ts';
import { escapeXml as esc } from './svg-charts.ts';

/** The section's opening sentence, the same in both reports. */
function headline(s: SecondOpinionSummary): string {
  return (
    `The judge model ${s.model} read each final message: it agreed with the claim reader on ${s.agreed}/${s.answered} ` +
    `answered trial(s) (${pct(s.agreementRate)}), ${s.unavailable.length} of ${s.trials} unavailable. Advisory: it changes ` +
    `no verdict, rule or score in this report. Its tokens, counted apart from the agent's: ${s.inputTokens} in, ${s.outputTokens} out.`
  );
}

/** The Markdown "Second opinion" section: agreement, each disagreement, each unavailable answer. */
export function secondOpinionLines(s: SecondOpinionSummary): string[] {
  return [
    '## Second opinion (advisory)',
    '',
    headline(s),
    '',
    ...(s.disagreements.length === 0
      ? ['No disagreement.']
      : [
          '| Scenario | Agent | Trial | Judge model | Claim reader | Trial passed | Quote |',
          '|---|---|---|---|---|---|---|',
          ...s.disagreements.map(
            (d) =>
              `| ${d.scenario} | ${d.label} | ${d.trial} | ${d.judge} | ${d.claimReader} | ${d.passed ? 'yes' : 'no'} | ${d.quote.replace(/[|\n]/g, ' ')} |`,
          ),
        ]),
    ...(s.unavailable.length === 0
      ? []
      : ['', ...s.unavailable.map((u) => `- ${u.scenario} [${u.label}] trial ${u.trial}: ${u.reason}`)]),
    '',
  ];
}

/** The HTML "Second opinion" section, with the same content. */
export function secondOpinionSection(s: SecondOpinionSummary): string {
  const rows = s.disagreements
    .map(
      (d) =>
        `<tr><td>${esc(d.scenario)}</td><td>${esc(d.label)}</td><td>${d.trial}</td><td>${esc(d.judge)}</td><td>${esc(d.claimReader)}</td><td class="${d.passed ? 'pass' : 'fail'}">${d.passed ? 'yes' : 'no'}</td><td>${esc(d.quote)}</td></tr>`,
    )
    .join('');
  const unavailable = s.unavailable.length
    ? `<ul id="judge-unavailable">${s.unavailable.map((u) => `<li>${esc(u.scenario)} [${esc(u.label)}] trial ${u.trial}: ${esc(u.reason)}</li>`).join('')}</ul>`
    : '';
  return `<section id="second-opinion"><h2>Second opinion (advisory)</h2><p>${esc(headline(s))}</p>
<table id="judge-disagreements"><tr><th>Scenario</th><th>Agent</th><th>Trial</th><th>Judge model</th><th>Claim reader</th><th>Trial passed</th><th>Quote</th></tr>${rows || '<tr><td colspan="7">No disagreement.</td></tr>'}</table>${unavailable}</section>`;
}
