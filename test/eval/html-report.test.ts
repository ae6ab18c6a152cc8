import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adversarialAgent } from '../../src/eval/agents/adversarial-agent.ts';
import { referenceAgent } from '../../src/eval/agents/reference-agent.ts';
import { type EvaluationReport, runEvaluation } from '../../src/eval/evaluation.ts';
import { writeReports } from '../../src/eval/report/write-reports.ts';
import { startLampsWorld } from './support/lamps-world.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
  it('writes JSON results and a Markdown summary with dev and holdout side by side', () => {
    const paths = writeReports(report, outDir);
    const json = JSON.parse(readFileSync(paths.json, 'utf8')) as EvaluationReport;
    expect(json.format).toBe('toolgate-eval/1');
    expect(json.trials).toHaveLength(report.trials.length);
    const markdown = readFileSync(paths.markdown, 'utf8');
    expect(markdown).toContain('| Metric | all | dev | holdout |');
    expect(markdown).toContain('| Task success | 100.0% | 100.0% | 100.0% |');
  });

  it.runIf(existsSync(CHROMIUM))('renders offline in Chromium with the charts drawn', async () => {
    const paths = writeReports(report, outDir);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await page.goto(`file://${paths.html}`);
      const count = (selector: string) => page.locator(selector).count();
      expect(await count('svg[data-chart="success-by-family"] rect.bar')).toBe(
        Object.keys(report.byFamily).length,
      );
      expect(await count('svg[data-chart="calls-per-task"] rect.bar')).toBe(
        Object.keys(report.byFamily).length,
      );
      expect(await count('svg[data-chart="pass-hat-k"] polyline.curve')).toBe(3);
      expect(await count('svg[data-chart="pass-hat-k"] circle.point')).toBe(9);
      const box = await page.locator('svg[data-chart="success-by-family"] rect.bar').first().boundingBox();
      expect(box?.width).toBeGreaterThan(100);
      expect(await page.locator('#headline').textContent()).toContain(
        `${report.overall.trials}/${report.overall.trials} trials passed`,
      );
      expect(await count('#scenarios tr')).toBe(report.scenarios.length + 1);
      expect(requests).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows adversarial numbers per policy', async () => {
    const lamps = await startLampsWorld();
    try {
      const adversarial = await runEvaluation({
        world: lamps.world,
        scenarios: lamps.scenarios.slice(0, 2),
        agents: [adversarialAgent('same_key_changed_args'), adversarialAgent('repeat_non_retryable')],
        trials: 1,
      });
      const paths = writeReports(adversarial, join(outDir, 'adversarial'));
      const html = readFileSync(paths.html, 'utf8');
      expect(html).toContain('<table id="policies">');
      expect(html).toContain('<td>same_key_changed_args</td><td>2/2</td><td>0</td>');
    } finally {
      await lamps.close();
    }
  });
});
