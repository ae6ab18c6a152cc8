import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { simulationExtension } from '@toolgate/simulation';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, CONSOLE_SHOTS } from '../support/chromium.ts';
import { executions, testDomain } from '../support/test-domain.ts';

const ALICE = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read', 'operations:confirm'],
} as const;
const BOB = {
  sub: 'bob',
  tenant: 'tenant-a',
  actor: 'operator',
  scopes: ['operations:confirm', 'operations:read'],
} as const;

describe.runIf(existsSync(CHROMIUM))('confirming a parked call in the console, in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gw = await startTestGateway({
      extensions: [simulationExtension],
      modules: [testDomain()],
      app: { backgroundJobs: false },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  async function signIn(page: Page, token: string) {
    await page.goto(`${gw.origin}/console`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  }

  it('an approver sees the question as the tool built it, chooses, confirms, and it runs once', async () => {
    const args = { account: 'acc-9', amount: 5_000, memo: 'rent', idempotency_key: 'console-approve-0001' };
    const parked = await gw.callTool(ALICE, 'testing_credit_approved', args);
    expect(parked).toMatchObject({ status: 'in_progress', code: 'CONFIRMATION_PENDING' });
    const id = parked.operation_id!;

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));

    // The requester, even holding the approver's scope, is refused and nothing changes.
    await signIn(page, await gw.tokenFor(ALICE));
    await page.goto(`${gw.origin}/console#operation/${id}`);
    await page.getByLabel('Leave it off').check();
    await page.getByRole('button', { name: 'Confirm and run' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'requester' }).textContent())
      .toContain('The requester of a call cannot confirm or refuse it');
    expect((await gw.operation(id))?.status).toBe('awaiting_confirmation');
    expect(await executions(gw.app.db, 'execute')).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signIn(page, await gw.tokenFor(BOB));
    await page.goto(`${gw.origin}/console#confirmations`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Confirmations awaiting an approver (1)' }).count())
      .toBe(1);
    const row = page.getByRole('row').filter({ hasText: id });
    expect(await row.textContent()).toContain('Credit 5000 cents to account acc-9.');
    expect(await row.textContent()).toContain('alice');
    await page.screenshot({ path: join(CONSOLE_SHOTS, '6-confirmations.png') });

    await page.getByRole('link', { name: `Open ${id}` }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Confirmation (pending)' }).count()).toBe(1);
    const question = page.locator('.question');
    expect(await question.textContent()).toContain('Credit 5000 cents to account acc-9.');
    expect(await question.textContent()).toContain('account');
    expect(await question.textContent()).toContain('5000');
    expect(await page.getByRole('group', { name: 'Statement line' }).textContent()).toContain('Print "rent"');

    // No option chosen: the console asks for one and sends nothing.
    await page.getByRole('button', { name: 'Confirm and run' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'Choose' }).textContent()).toBe(
      'Choose: Statement line.',
    );
    expect(await executions(gw.app.db, 'execute')).toEqual([]);

    await page.getByLabel('Leave it off').check();
    await page.getByLabel('Note (optional)').fill('Account verified by phone');
    await page.screenshot({ path: join(CONSOLE_SHOTS, '7-confirm-question.png') });
    await page.getByRole('button', { name: 'Confirm and run' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Confirmed ${id}: completed.`);
    await expect.poll(() => page.getByRole('heading', { name: 'Confirmation (accepted)' }).count()).toBe(1);
    await expect.poll(() => page.getByText('operations_confirmation_answer').count()).toBe(1);
    expect(await page.getByText('Answered accepted by bob').textContent()).toContain(
      '(omit): Account verified by phone',
    );
    await page.screenshot({ path: join(CONSOLE_SHOTS, '8-confirmed.png'), fullPage: true });

    // The world: one execution, as alice, with the approver's choice; one credit; the key replays it.
    const ran = await executions(gw.app.db, 'execute');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ operation_id: id, subject: 'alice' });
    expect(ran[0]!.confirmed).toMatch(/^operator:omit:[0-9a-f]{24}$/);
    expect(await gw.app.db.query('SELECT request_id, amount FROM test_bank_credits')).toEqual([
      { request_id: id, amount: 5_000 },
    ]);
    const poll = await gw.callTool(ALICE, 'operations_get', { operation_id: id });
    expect(poll.result).toMatchObject({ status: 'completed' });
    const audit = await gw.app.db.query<{ subject: string; action: string }>(
      'SELECT subject, action FROM audit_log WHERE operation_id = ? ORDER BY seq',
      [id],
    );
    expect(audit.filter((a) => a.action === 'operations_confirmation_answer')).toEqual([
      { subject: 'bob', action: 'operations_confirmation_answer' },
    ]);

    await page.goto(`${gw.origin}/console#confirmations`);
    await expect.poll(() => page.getByText('No call waits for an approver.').count()).toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);
});
