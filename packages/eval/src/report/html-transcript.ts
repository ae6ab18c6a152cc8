import type { TranscriptEvent } from '../transcript.ts';
import type { TrialResult } from '../trial-runner.ts';
import { escapeXml as esc } from './svg-charts.ts';

/** The anchor of a trial's transcript, so tables can link to it. */
export function trialAnchor(trial: Pick<TrialResult, 'scenario' | 'label' | 'trial'>): string {
  return `trial-${trial.scenario}-${trial.label}-${trial.trial}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * One trial as a collapsible transcript: the user's request and replies, each tool call with its
 * arguments and the envelope's status and code, world actions, the agent's messages, the final claim
 * and why it failed. Everything shown is what the trial saw, ids resolved.
 */
export function trialTranscript(trial: TrialResult): string {
  const violationsAt = new Map<number, string[]>();
  for (const v of trial.violations) {
    if (v.call !== null) violationsAt.set(v.call, [...(violationsAt.get(v.call) ?? []), v.rule]);
  }
  const events = trial.transcript.map((event) => eventItem(event, violationsAt)).join('');
  const expected =
    typeof trial.expectedClaim === 'string' ? trial.expectedClaim : trial.expectedClaim.join(' or ');
  const reasons = trial.reasons.length
    ? `<ul class="reasons">${trial.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`
    : '<p class="pass">Passed: the task done, every rule kept, nothing unsafe.</p>';
  return `<details class="trial" id="${trialAnchor(trial)}" data-passed="${trial.passed}"><summary><span class="${trial.passed ? 'pass' : 'fail'}">${trial.passed ? 'passed' : 'failed'}</span> ${esc(trial.scenario)} [${esc(trial.label)}] trial ${trial.trial}: claimed ${esc(trial.claim ?? 'nothing')}, expected ${esc(expected)}</summary><p>${esc(trial.title)}</p><ol class="events">${events}</ol><p class="claim">Final claim: <b>${esc(trial.claim ?? 'none')}</b> (expected ${esc(expected)})</p>${reasons}${opinion(trial)}</details>`;
}

/** The judge model's reading, marked advisory: it is not among the reasons above. */
function opinion(trial: TrialResult): string {
  const judge = trial.judge;
  if (!judge) return '';
  const said =
    judge.verdict === null
      ? esc(judge.unavailable ?? 'judge unavailable')
      : `${esc(judge.verdict)} (claim reader: ${esc(judge.claimReader)}; ${judge.agreesWithClaimReader ? 'agrees' : 'disagrees'})`;
  return `<p class="second-opinion">Second opinion, advisory (${esc(judge.model)}): ${said}</p>`;
}

function eventItem(event: TranscriptEvent, violationsAt: ReadonlyMap<number, readonly string[]>): string {
  if (event.kind === 'user') return `<li class="user"><b>user</b> ${esc(event.text)}</li>`;
  if (event.kind === 'agent') return `<li class="agent"><b>agent</b><pre>${esc(event.text)}</pre></li>`;
  if (event.kind === 'world') {
    return `<li class="world"><b>world</b> ${esc(event.moment)}: <code>${esc(JSON.stringify(event.action))}</code></li>`;
  }
  if (event.kind === 'confirmation') {
    const how = event.scripted ? '' : ' (unscripted: dismissed)';
    const chose = event.choice !== null ? ` choosing <code>${esc(event.choice)}</code>` : '';
    const missing = event.missing.length ? ` (it did not say: ${esc(event.missing.join(', '))})` : '';
    return `<li class="confirmation"><b>person</b> asked by the client during ${esc(event.tool ?? 'a call')}: ${esc(event.message)} → <b>${esc(event.answer)}</b>${chose}${how}${missing}</li>`;
  }
  const envelope = event.envelope;
  const answer = envelope
    ? `<span class="status status-${esc(envelope.status)}">${esc(envelope.status)}</span>${envelope.code ? ` <code>${esc(envelope.code)}</code>` : ''}${envelope.replayed ? ' (replayed)' : ''} ${esc(envelope.message)}`
    : `<span class="status status-protocol">protocol error</span> ${esc(event.protocolError ?? '')}`;
  const flagged = (violationsAt.get(event.index) ?? [])
    .map((rule) => ` <span class="violation">${esc(rule)}</span>`)
    .join('');
  const result = envelope?.result ? `<pre>${esc(JSON.stringify(envelope.result, null, 2))}</pre>` : '';
  return `<li class="call" data-call="${event.index}"><b>#${event.index} ${esc(event.tool)}</b> → ${answer}${flagged}<details><summary>arguments and answer</summary><pre>${esc(JSON.stringify(event.args, null, 2))}</pre>${result}</details></li>`;
}
