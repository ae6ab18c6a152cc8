import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { simulationExtension } from '@toolgate/simulation';
import { type Browser, chromium } from 'playwright-core';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, CONSOLE_SHOTS } from '../../../../test/support/chromium.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';

const H = 3_600_000;
/** What a datetime-local input takes: minutes, UTC as the form says. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe.runIf(existsSync(CHROMIUM))('exceptions in the operator console (Chromium)', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gw = await startTestGateway({
      extensions: [simulationExtension],
      modules: [changesDomain],
      app: { backgroundJobs: false },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const stored = () =>
    gw.app.db.query<{
      exception_id: string;
      target: string;
      granted_by: string;
      revoked_by: string | null;
    }>('SELECT exception_id, target, granted_by, revoked_by FROM granted_exceptions ORDER BY exception_id');

  it('an approver grants an exception, sees it listed, and revokes it; a bad grant stores nothing', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 4')) problems.push(m.text());
    });
    await page.goto(`${gw.origin}/console`);
    await page.getByLabel('Operator token').fill(await gw.tokenFor('changes_approver'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Exceptions', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Exceptions (0)' }).count()).toBe(1);

    const now = gw.app.clock.now();
    await page.getByLabel('Service id').fill('payments-api');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByLabel('Starts (UTC)').fill(local(now + 4 * H));
    await page.getByLabel('Ends (UTC)').fill(local(now + 2 * H));
    await page.getByLabel(/^Reason/).fill('Card network certificate rotation agreed with the vendor');
    await page.getByRole('button', { name: 'Grant exception' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('ends_at must be after starts_at');
    expect(await stored()).toEqual([]);

    await page.getByLabel('Ends (UTC)').fill(local(now + 6 * H));
    await page.getByRole('button', { name: 'Grant exception' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Exceptions (1)' }).count()).toBe(1);
    const [granted] = await stored();
    expect(granted).toMatchObject({ granted_by: 'appr.chen', revoked_by: null });
    expect(JSON.parse(granted!.target)).toEqual({ environment: 'production', service_id: 'payments-api' });
    expect(await page.getByRole('status').textContent()).toBe(
      `Granted ${granted!.exception_id} for environment: production, service_id: payments-api.`,
    );
    const row = page.getByRole('row').filter({ hasText: granted!.exception_id });
    expect(await row.textContent()).toContain('scheduled');
    expect(await row.textContent()).toContain('appr.chen');
    await page.screenshot({ path: join(CONSOLE_SHOTS, 'exceptions-1-granted.png') });

    await page.getByRole('button', { name: `Revoke ${granted!.exception_id}` }).click();
    expect((await stored())[0]!.revoked_by).toBeNull();
    await page.getByRole('button', { name: `Confirm revoke ${granted!.exception_id}` }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Revoked ${granted!.exception_id}.`);
    await expect.poll(async () => (await stored())[0]!.revoked_by).toBe('appr.chen');
    await expect.poll(() => row.textContent()).toContain('revoked by appr.chen');
    expect(await row.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: join(CONSOLE_SHOTS, 'exceptions-2-revoked.png') });

    await page.getByLabel('Service id').fill('no-such-service');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByLabel('Starts (UTC)').fill(local(now + H));
    await page.getByLabel('Ends (UTC)').fill(local(now + 2 * H));
    await page.getByLabel(/^Reason/).fill('A service that is not in this catalog');
    await page.getByRole('button', { name: 'Grant exception' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Nothing in your tenant matches service_id: no-such-service, environment: production');
    expect(await stored()).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
