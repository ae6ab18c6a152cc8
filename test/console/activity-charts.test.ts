import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerReader,
  type ParcelLedger,
  parcelTools,
  reviewer,
  shipArgs,
  shipper,
} from '../operator/parcel-tools.ts';
import { CHROMIUM, CHROMIUM_ARGS, CONSOLE_SHOTS } from '../support/chromium.ts';

describe.runIf(existsSync(CHROMIUM))("the console's activity charts in Chromium", () => {
  let gw: TestGateway;
  let browser: Browser;
  const ledger: ParcelLedger = { reviews: [] };

  beforeAll(async () => {
    gw = await startTestGateway({
      tools: parcelTools(ledger),
      app: { backgroundJobs: false, operations: { reconcileBackoffMs: 0 } },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /** What a chart shows: its bars (tooltip, total) and its drawn segments (series, count). */
  function readChart(page: Page, label: string) {
    return page.getByRole('img', { name: label }).evaluate((chart) => ({
      bars: [...chart.querySelectorAll('g[data-bucket]')].map((g) => ({
        title: g.querySelector('title')?.textContent ?? '',
        total: Number(g.getAttribute('data-total')),
        segments: [...g.querySelectorAll('rect[data-series]')].map((r) => ({
          series: r.getAttribute('data-series'),
          count: Number(r.getAttribute('data-count')),
          height: Number(r.getAttribute('height')),
        })),
      })),
    }));
  }

  it("draws the tenant's review backlog and calls by status from the store, and redraws after a decision", async () => {
    const parked = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`charts-${randomUUID()}`));
    await gw.app.operations.reconciler.runOnce();
    expect((await gw.operation(parked.operation_id!))?.status).toBe('needs_review');
    expect((await gw.callTool(customerReader, 'parcels_peek', { parcel_id: 'p-1' })).code).toBe('FORBIDDEN');
    // Another tenant's call and backlog are not this operator's to see.
    await gw.callTool(shipper('globex'), 'parcels_ship', shipArgs(`globex-${randomUUID()}`));

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`${gw.origin}/console`);
    await page.getByLabel('Operator token').fill(await gw.tokenFor(reviewer()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Review queue', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Review queue (1)' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Last 24 hours' }).count()).toBe(1);

    const backlogLabel =
      'Review backlog over the last 24 hours; now 1 need review and 0 have an unknown outcome';
    const backlog = await readChart(page, backlogLabel);
    expect(backlog.bars).toHaveLength(24);
    expect(backlog.bars.at(-1)!.segments).toEqual([
      expect.objectContaining({ series: 'needs_review', count: 1 }),
    ]);
    expect(backlog.bars.at(-1)!.title).toMatch(/^\d\d:\d\d UTC: needs_review 1, outcome_unknown 0$/);
    expect(backlog.bars.slice(0, -1).every((b) => b.total === 0 && b.segments.length === 0)).toBe(true);

    const calls = await readChart(page, '2 audited calls over the last 24 hours, by status');
    expect(calls.bars).toHaveLength(24);
    const last = calls.bars.at(-1)!;
    expect(last.segments.map((s) => [s.series, s.count])).toEqual([
      ['outcome_unknown', 1],
      ['failed', 1],
    ]);
    // One scale per chart: equal counts draw equal heights.
    expect(last.segments[0]!.height).toBeCloseTo(last.segments[1]!.height);
    const legend = page.getByRole('figure').filter({ hasText: 'Calls by status' }).getByRole('listitem');
    expect(await legend.allTextContents()).toEqual([' outcome_unknown', ' failed']);
    await page.screenshot({ path: join(CONSOLE_SHOTS, 'activity-charts.png'), fullPage: true });

    const resolved = await fetch(
      new URL(`/operator/v1/operations/${parked.operation_id}/resolve`, gw.origin),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await gw.tokenFor(reviewer())}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ outcome: 'completed', note: 'The carrier portal shows the pickup' }),
      },
    );
    expect(resolved.status).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByText('No operation waits for a review decision.').count()).toBe(1);
    const after = await readChart(
      page,
      'Review backlog over the last 24 hours; now 0 need review and 0 have an unknown outcome',
    );
    expect(after.bars.at(-1)!.segments).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows no charts to a token that may not read operations', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw.origin}/console`);
    await page.getByLabel('Operator token').fill(await gw.tokenFor(customerReader));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await page.goto(`${gw.origin}/console#queue`);
    await expect.poll(() => page.getByText('This token may not read operations.').count()).toBe(1);
    expect(await page.getByRole('img').count()).toBe(0);
  });
});
