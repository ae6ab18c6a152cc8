import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import type { ShiftableClock } from 'toolgate/server';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, CONSOLE_SHOTS } from '../support/chromium.ts';
import {
  type ParcelLedger,
  parcelTools,
  reviewer,
  SECRET_STREET,
  shipArgs,
  shipper,
} from './parcel-tools.ts';

describe.runIf(existsSync(CHROMIUM))('the operator console in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  const ledger: ParcelLedger = { reviews: [] };

  beforeAll(async () => {
    gw = await startTestGateway({ tools: parcelTools(ledger), app: { backgroundJobs: false } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('signs in with a pasted token, lists a parked operation, resolves it, and the owner sees the change', async () => {
    const parked = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`console-${randomUUID()}`));
    (gw.app.clock as ShiftableClock).shift(600_000);
    await gw.app.operations.reconciler.runOnce();
    const id = parked.operation_id!;
    const token = await gw.tokenFor(reviewer());

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    const shell = await page.goto(`${gw.origin}/console`);
    expect(shell?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.screenshot({ path: join(CONSOLE_SHOTS, '1-sign-in.png') });

    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The landing page counts what waits; the review queue lists it.
    await expect
      .poll(() => page.getByRole('region', { name: 'Reviews waiting' }).locator('.count').textContent())
      .toBe('1');
    await page.getByRole('link', { name: 'Open the review queue' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Review queue (1)' }).count()).toBe(1);
    const row = page.getByRole('row').filter({ hasText: id });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('parcels_ship');
    expect(await page.content()).not.toContain(SECRET_STREET);
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate(() => sessionStorage.getItem('toolgate.operatorToken'))).toBe(token);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.screenshot({ path: join(CONSOLE_SHOTS, '2-review-queue.png') });

    await page.getByRole('button', { name: `Resolve ${id}` }).click();
    const dialog = page.getByRole('dialog');
    await page.getByLabel('It happened (completed)').check();
    await dialog.getByRole('button', { name: 'Review decision' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('note is required');
    await page.getByLabel('Note (required: what you checked)').fill('Carrier portal shows the pickup scan');
    await page.getByLabel('Reference in the owning system (optional)').fill('TRK-2024');
    await dialog.getByRole('button', { name: 'Review decision' }).click();
    expect(await dialog.textContent()).toContain('This cannot be changed afterwards');
    await page.screenshot({ path: join(CONSOLE_SHOTS, '3-confirm.png') });
    await dialog.getByRole('button', { name: 'Confirm resolution' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Resolved ${id} as completed.`);
    await expect.poll(() => page.getByText('No operation waits for a review decision.').count()).toBe(1);

    const seen = await gw.callTool(shipper(), 'operations_get', { operation_id: id });
    expect(seen.result).toMatchObject({ status: 'completed' });
    expect(ledger.reviews).toEqual([
      expect.objectContaining({ decision: expect.objectContaining({ reference: 'TRK-2024' }) }),
    ]);

    await page.goto(`${gw.origin}/console#operation/${id}`);
    await expect.poll(() => page.getByText('operations_review_resolve').count()).toBe(1);
    expect(await page.getByRole('table').first().textContent()).toContain('reviewer-acme (operator)');
    await page.screenshot({ path: join(CONSOLE_SHOTS, '4-operation-detail.png'), fullPage: true });

    await page.goto(`${gw.origin}/console#tools`);
    const tool = page.getByRole('row').filter({ hasText: 'parcels_ship' });
    await expect.poll(() => tool.count()).toBe(1);
    expect(await tool.textContent()).toContain('1.2.0');
    expect(await tool.textContent()).toContain('outcome_unknown 1');
    await page.screenshot({ path: join(CONSOLE_SHOTS, '5-tools.png') });

    await page.goto(`${gw.origin}/console#operations?status=completed`);
    await expect.poll(() => page.getByRole('row').filter({ hasText: id }).count()).toBe(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('toolgate.operatorToken'))).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  it('signs in when Enter is pressed in the one-line token field', async () => {
    const token = await gw.tokenFor(reviewer());
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${gw.origin}/console`);
      const field = page.getByLabel('Operator token');
      await field.fill(token);
      await field.press('Enter');
      await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
      expect(await page.evaluate(() => sessionStorage.getItem('toolgate.operatorToken'))).toBe(token);
    } finally {
      await page.close();
    }
  }, 60_000);
});
