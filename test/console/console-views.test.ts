import { existsSync } from 'node:fs';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { TokenSubject } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';
import {
  CONSOLE_OPERATOR,
  type ConsoleWorld,
  QUIET_OPERATOR,
  REQUESTER,
  startConsoleWorld,
} from '../support/console-world.ts';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

interface Visit {
  readonly hash: string;
  /** The view's h2 once it has drawn. */
  readonly heading: string;
}

/** What a page must be at any width: nothing wider than the window, and nothing axe calls serious. */
async function expectSound(page: Page, where: string) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(overflow.scrollWidth, `${where}: horizontal scroll`).toBeLessThanOrEqual(overflow.clientWidth);
  // Evaluated over the DevTools protocol, so the page's script-src policy stays as it is served.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    `${where}: accessibility`,
  ).toEqual([]);
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}

describe.runIf(existsSync(CHROMIUM))('every console view fits a laptop and a phone, in Chromium', () => {
  let world: ConsoleWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await startConsoleWorld();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await world?.gw.close();
  });

  /** A page of its own tab, signed in as `who`, that records every console error and page error. */
  async function signedIn(who: TokenSubject, viewport: (typeof VIEWPORTS)[number]) {
    const page = await browser.newPage({ viewport });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    await page.goto(`${world.gw.origin}/console`);
    const where = `sign-in at ${viewport.width}px`;
    // The sign-in page shows no sections and no Sign out: there is no one to sign out.
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);
    await expectSound(page, where);
    await page.getByLabel('Operator token').fill(await world.gw.tokenFor(who));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    // The landing page draws once all its reads have answered: none is still in flight after this.
    await page
      .getByRole('heading', { level: 2, name: 'Waiting for you', exact: true })
      .waitFor({ timeout: 10_000 });
    return { page, problems };
  }

  async function visit(page: Page, { hash, heading }: Visit) {
    await page.goto(`${world.gw.origin}/console${hash}`);
    await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor({ timeout: 10_000 });
  }

  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}×${viewport.height}: every view with content, no horizontal scroll, no console error, no serious accessibility violation`, async () => {
      const { page, problems } = await signedIn(CONSOLE_OPERATOR, viewport);
      const views: Visit[] = [
        { hash: '', heading: 'Waiting for you' },
        { hash: '#queue', heading: 'Review queue (2)' },
        { hash: '#confirmations', heading: 'Confirmations awaiting an approver (2)' },
        { hash: '#operations', heading: 'Operations' },
        { hash: `#operation/${world.resolvedId}`, heading: `Operation ${world.resolvedId}` },
        { hash: `#operation/${world.parkedIds[1]}`, heading: `Operation ${world.parkedIds[1]}` },
        { hash: `#operation/${world.reviewIds[0]}`, heading: `Operation ${world.reviewIds[0]}` },
        { hash: '#audit', heading: 'Audit trail' },
        { hash: '#exceptions', heading: 'Exceptions (2)' },
        { hash: '#tools', heading: 'Tools' },
      ];
      for (const view of views) {
        await visit(page, view);
        await expectSound(page, `${view.hash || 'landing'} at ${viewport.width}px`);
      }
      // The resolve dialog, open over the review queue.
      await visit(page, views[1]!);
      await page.getByRole('button', { name: `Resolve ${world.reviewIds[0]}` }).click();
      await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
      await expectSound(page, `resolve dialog at ${viewport.width}px`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);

    it(`at ${viewport.width}×${viewport.height}: every view of a tenant where nothing happened says what would be listed`, async () => {
      const { page, problems } = await signedIn(QUIET_OPERATOR, viewport);
      const views: [Visit, string][] = [
        [
          { hash: '', heading: 'Waiting for you' },
          'Nothing waits for you right now: no review, no confirmation, no exception about to end.',
        ],
        [{ hash: '#queue', heading: 'Review queue (0)' }, 'No operation waits for a review decision.'],
        [
          { hash: '#confirmations', heading: 'Confirmations awaiting an approver (0)' },
          'No call waits for an approver.',
        ],
        [{ hash: '#operations', heading: 'Operations' }, 'No operation yet.'],
        [{ hash: '#audit', heading: 'Audit trail' }, 'No audit entry yet.'],
        [{ hash: '#exceptions', heading: 'Exceptions (0)' }, 'No exception has been granted.'],
      ];
      for (const [view, text] of views) {
        await visit(page, view);
        expect(await page.locator('#view').textContent(), view.hash).toContain(text);
        expect(await page.getByRole('table').count(), view.hash).toBe(0);
        await expectSound(page, `empty ${view.hash || 'landing'} at ${viewport.width}px`);
      }
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);
  }

  it('the landing page counts what waits for the signed-in person and links to each', async () => {
    const { page } = await signedIn(CONSOLE_OPERATOR, VIEWPORTS[0]);
    const count = (name: string) => page.getByRole('region', { name }).locator('.count').textContent();
    await expect.poll(() => count('Reviews waiting')).toBe('2');
    expect(await count('Confirmations waiting')).toBe('2');
    // One exception is in force and ends in 5 hours; the other begins tomorrow.
    expect(await count('Exceptions ending within 24 hours')).toBe('1');
    const confirmations = page.getByRole('region', { name: 'Confirmations waiting' });
    for (const id of world.parkedIds)
      expect(await confirmations.getByRole('link', { name: id }).count()).toBe(1);
    const reviews = page.getByRole('region', { name: 'Reviews waiting' });
    for (const id of world.reviewIds) expect(await reviews.getByRole('link', { name: id }).count()).toBe(1);
    expect(await page.getByText('5 items wait for you.').count()).toBe(1);
    await page.getByRole('link', { name: 'Open the confirmations' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Confirmations awaiting an approver (2)' }).count())
      .toBe(1);
    await page.close();
  }, 60_000);

  it("the landing page does not count the person's own requests, and asks only for what the token may read", async () => {
    // The requester, given the approver's scope: both parked calls are theirs, so neither waits for them.
    const requester = { ...REQUESTER, scopes: ['operations:confirm'] };
    const { page, problems } = await signedIn(requester, VIEWPORTS[0]);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.reload();
    const confirmations = page.getByRole('region', { name: 'Confirmations waiting' });
    await expect.poll(() => confirmations.locator('.count').textContent()).toBe('0');
    expect(await confirmations.textContent()).toContain(
      '2 more are your own requests: another person must decide them.',
    );
    expect(await page.getByText(`Signed in as ${REQUESTER.sub} (tenant acme).`).count()).toBe(1);
    // No operations:review, no grant scope: those counts say so, and the API is not asked for them.
    const reviews = page.getByRole('region', { name: 'Reviews waiting' });
    expect(await reviews.textContent()).toContain(
      'This token may not decide reviews (it needs operations:review).',
    );
    expect(requests.filter((p) => p.startsWith('/operator/v1/')).sort()).toEqual([
      '/operator/v1/confirmations',
      '/operator/v1/me',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('long cells are cut at 1280 px with their full text as a tooltip, and wrap whole on a phone', async () => {
    const longest = 'title: Replacement espresso machine for the fourth-floor kitchen';
    for (const viewport of VIEWPORTS) {
      const { page } = await signedIn(CONSOLE_OPERATOR, viewport);
      await visit(page, { hash: '#operations', heading: 'Operations' });
      const cell = page.getByRole('cell').filter({ hasText: longest });
      const shown = await cell.evaluate((td) => ({
        title: td.getAttribute('title'),
        cut: td.scrollWidth > td.clientWidth,
        height: td.getBoundingClientRect().height,
      }));
      expect(shown.title).toContain(longest);
      expect(shown.title).not.toContain('withheld');
      expect(shown.title).not.toMatch(/: ;|: $/);
      if (viewport.width === 1280) expect(shown).toMatchObject({ cut: true });
      else expect(shown.cut).toBe(false);
      // No cell of the list wraps a word per line: each row is one line high at 1280 px.
      if (viewport.width === 1280) {
        const finding = page.getByRole('cell').filter({ hasText: 'carrier has no status query' }).first();
        expect(await finding.evaluate((td) => td.getBoundingClientRect().height)).toBeLessThan(60);
      }
      await page.close();
    }
  }, 60_000);

  it("an operation's page: a large id, its audit details as labelled fields, UTC times, and no review section where none applies", async () => {
    const { page } = await signedIn(CONSOLE_OPERATOR, VIEWPORTS[0]);
    await visit(page, {
      hash: `#operation/${world.reviewIds[0]}`,
      heading: `Operation ${world.reviewIds[0]}`,
    });
    const id = page.getByRole('heading', { level: 2 }).locator('.mono');
    expect(Number.parseFloat(await id.evaluate((n) => getComputedStyle(n).fontSize))).toBeGreaterThanOrEqual(
      20,
    );
    const timeline = page.getByRole('table', { name: 'Timeline (audit)' });
    const reconcile = timeline.getByRole('row').filter({ hasText: 'operations_reconcile' });
    const details = await reconcile
      .locator('dl')
      .evaluate((dl) =>
        [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
    expect(details).toContainEqual(['Finding', 'carrier has no status query']);
    expect(details).toContainEqual(['Owner', 'shipper-acme']);
    expect(await timeline.textContent()).not.toContain('{"');
    expect(await page.locator('#view').textContent()).toMatch(/Created\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // Waiting for a review: the section says that no decision is recorded yet.
    expect(await page.getByRole('heading', { name: 'Review decisions' }).count()).toBe(1);
    expect(await page.getByText('No decision yet.').count()).toBe(1);

    // A call parked for an approver is not a review: no review section at all.
    await visit(page, {
      hash: `#operation/${world.parkedIds[0]}`,
      heading: `Operation ${world.parkedIds[0]}`,
    });
    expect(await page.getByRole('heading', { name: 'Confirmation (pending)' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Review decisions' }).count()).toBe(0);
    await page.close();
  }, 60_000);

  it('the operations filter takes UTC date-times and picks tools from the served ones', async () => {
    const { page } = await signedIn(CONSOLE_OPERATOR, VIEWPORTS[0]);
    await visit(page, { hash: '#operations', heading: 'Operations' });
    const since = page.getByLabel('Created since (UTC)');
    expect(await since.getAttribute('type')).toBe('text');
    const tools = await page.getByLabel('Tool').locator('option').allTextContents();
    expect(tools).toEqual(expect.arrayContaining(['any', 'parcels_ship', 'testing_credit_approved']));

    await since.fill('yesterday at noon');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(
      'Created since: type a UTC time as YYYY-MM-DD HH:MM.',
    );
    expect(page.url()).not.toContain('since=');

    await page.getByLabel('Tool').selectOption('testing_credit_approved');
    await since.fill('2020-01-02 13:45');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => new URL(page.url()).hash).toContain('since=');
    const hash = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    expect(Object.fromEntries(hash)).toEqual({
      tool: 'testing_credit_approved',
      since: '2020-01-02T13:45:00.000Z',
    });
    await expect.poll(() => page.getByRole('table', { name: 'Operations' }).getByRole('row').count()).toBe(3);
    // The field shows back what it filters by, in UTC.
    expect(await page.getByLabel('Created since (UTC)').inputValue()).toBe('2020-01-02 13:45');
    await page.close();
  }, 60_000);
});
