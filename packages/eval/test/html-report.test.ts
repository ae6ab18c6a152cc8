import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../test/support/chromium.ts';
import { adversarialAgent } from '../src/agents/adversarial-agent.ts';
import { referenceAgent } from '../src/agents/reference-agent.ts';
import { type EvaluationReport, runEvaluation } from '../src/evaluation.ts';
import { writeReports } from '../src/report/write-reports.ts';
import { startLampsWorld } from './support/lamps-world.ts';

let outDir: string;
let report: EvaluationReport;

beforeAll(async () => {
  const lamps = await startLampsWorld();
  try {
    report = await runEvaluation({
      world: lamps.world,
      scenarios: lamps.scenarios,
      agents: [referenceAgent],
      trials: 3,
    });
  } finally {
    await lamps.close();
  }
  outDir = mkdtempSync(join(tmpdir(), 'toolgate-report-'));
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('reports', () => {
  it('writes JSON results and a Markdown summary with both sides per family and split', () => {
    const paths = writeReports(report, outDir);
    const json = JSON.parse(readFileSync(paths.json, 'utf8')) as EvaluationReport;
    expect(json.format).toBe('toolgate-eval/2');
    expect(json.trials).toHaveLength(report.trials.length);
    const markdown = readFileSync(paths.markdown, 'utf8');
    expect(markdown).toContain('| Metric | side | all | dev | holdout |');
    expect(markdown).toContain('| Agent success | agent | 100.0% | 100.0% | 100.0% |');
    expect(markdown).toContain(
      '| Backend interventions (refusals that stopped a mistake) | backend | 0 | 0 | 0 |',
    );
    expect(markdown).toContain(
      '| Family | Split | Trials | Agent success | Agent recovery | Backend interventions |',
    );
    expect(markdown).toContain('## Failures by family and rule');
    expect(markdown).toContain('## pass^k');
  });

  it.runIf(existsSync(CHROMIUM))(
    'renders offline in Chromium: charts drawn, transcripts with resolved ids',
    async () => {
      const paths = writeReports(report, outDir);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        const requests: string[] = [];
        page.on('request', (r) => {
          if (!r.url().startsWith('file:')) requests.push(r.url());
        });
        await page.goto(`file://${paths.html}`);
        const count = (selector: string) => page.locator(selector).count();
        const families = Object.keys(report.familyTotals).length;
        // All passed: one green segment per family, its count written on the bar.
        expect(await count('svg[data-chart="outcome-by-family"] rect.segment')).toBe(families);
        expect(
          await count('svg[data-chart="outcome-by-family"] rect.segment[data-series="agent did it right"]'),
        ).toBe(families);
        const box = await page
          .locator('svg[data-chart="outcome-by-family"] rect.segment')
          .first()
          .boundingBox();
        expect(box?.width).toBeGreaterThan(100);
        // The rule matrix says which rules were put to the test where, and that they held.
        const cells = await count('svg[data-chart="failures-by-rule"] rect.cell');
        expect(cells % families).toBe(0);
        expect(await count('svg[data-chart="failures-by-rule"] rect.cell[data-tone="pass"]')).toBeGreaterThan(
          families,
        );
        expect(await count('svg[data-chart="failures-by-rule"] rect.cell[data-tone="fail"]')).toBe(0);
        // One bar per family and split that has trials.
        const familySplits = new Set(report.trials.map((t) => `${t.family}/${t.split}`)).size;
        expect(await count('svg[data-chart="calls-per-task"] rect.bar')).toBe(familySplits);
        expect(await count('svg[data-chart="pass-hat-k"] polyline.curve')).toBe(3);
        expect(await count('svg[data-chart="pass-hat-k"] circle.point')).toBe(9);
        expect(await page.locator('#headline').textContent()).toContain(
          `${report.overall.trials}/${report.overall.trials} trials passed`,
        );
        expect(await count('#scenarios tr')).toBe(report.scenarios.length + 1);
        // Every trial's transcript is there, collapsed; opening one shows the request, calls and claim.
        expect(await count('#transcripts details.trial')).toBe(report.trials.length);
        const transcript = page.locator('details.trial', { hasText: 'lamps-direct' }).first();
        expect(await transcript.locator('li.call').first().isVisible()).toBe(false);
        await transcript.locator('summary').first().click();
        expect(await transcript.locator('li.user').first().textContent()).toContain(
          'Please switch on my kitchen lamp.',
        );
        expect(await transcript.locator('li.call').first().textContent()).toContain(
          '#1 lamps_get → completed',
        );
        expect(await transcript.locator('p.claim').textContent()).toContain('completed');
        expect(await page.content()).not.toContain('{{');
        expect(requests).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );

  it.runIf(existsSync(CHROMIUM))(
    'shows, at one trial, what the backend stopped per policy and why each trial failed, ids resolved',
    async () => {
      const lamps = await startLampsWorld();
      let adversarial: EvaluationReport;
      try {
        adversarial = await runEvaluation({
          world: lamps.world,
          scenarios: lamps.scenarios,
          agents: [adversarialAgent('same_key_changed_args'), adversarialAgent('repeat_non_retryable')],
          trials: 1,
        });
      } finally {
        await lamps.close();
      }
      const paths = writeReports(adversarial, join(outDir, 'adversarial'));
      const markdown = readFileSync(paths.markdown, 'utf8');
      expect(markdown).toContain('## By policy');
      expect(markdown).not.toContain('## pass^k');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        await page.goto(`file://${paths.html}`);
        const count = (selector: string) => page.locator(selector).count();
        // One trial per scenario: no pass^k curve, but the family and rule charts carry the run.
        expect(await count('svg[data-chart="pass-hat-k"]')).toBe(0);
        expect(
          await count(
            'svg[data-chart="outcome-by-family"] rect.segment[data-series="backend stopped the agent\'s mistake"]',
          ),
        ).toBeGreaterThan(0);
        expect(
          await count(
            'svg[data-chart="failures-by-rule"] rect.cell[data-column="one_key_per_request"][data-tone="fail"]',
          ),
        ).toBeGreaterThan(0);
        // The policy that only the backend stopped is not the agent's success.
        const policy = page.locator('#policies tr[data-policy="same_key_changed_args"] td');
        expect(await policy.nth(2).textContent()).not.toBe('100.0%');
        expect(Number(await policy.nth(4).textContent())).toBeGreaterThan(0);
        expect(await policy.nth(5).textContent()).toBe('0');
        const failed = page
          .locator('details.trial[data-passed="false"]', { hasText: 'lamps-direct' })
          .first();
        await failed.locator('summary').first().click();
        expect(await failed.locator('ul.reasons').textContent()).toMatch(
          /one_key_per_request: call \d lamps_switch/,
        );
        expect(await failed.locator('span.violation').first().textContent()).toBe('one_key_per_request');
        expect(await failed.locator('li.call').nth(2).textContent()).toContain('IDEMPOTENCY_CONFLICT');
        expect(await page.content()).not.toContain('{{');
      } finally {
        await browser.close();
      }
    },
  );
});
