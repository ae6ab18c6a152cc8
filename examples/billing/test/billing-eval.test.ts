import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToolgatePackage } from './billing-stack.ts';
import { runToolgate, type Started, startBillingService } from './child-processes.ts';
import { ServiceData } from './service-data.ts';

const EXAMPLE_DIR = join(import.meta.dirname, '..');
/** The port the example's scenarios aim their backend faults at. */
const SERVICE_PORT = 41931;

/**
 * `toolgate eval --config toolgate.config.ts` over the billing example's own scenarios: the tools call
 * the real billing service, a lost answer is injected where the backend kit sends the request, and the
 * service's own tables say what happened. The module's reset hook puts the service back to its seed
 * before every trial, so a second trial of a scenario meets the invoice as the first one did.
 */
describe('toolgate eval of the billing tools', () => {
  let dir: string;
  let service: Started;
  beforeAll(async () => {
    linkToolgatePackage();
    dir = mkdtempSync(join(tmpdir(), 'billing-eval-'));
    service = await startBillingService({
      dbFile: join(dir, 'billing.db'),
      port: SERVICE_PORT,
      enableReset: true,
    });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes two trials of each scenario, each starting from the seeded invoices', async () => {
    const out = join(dir, 'out');
    const result = await runToolgate(
      [
        'eval',
        '--config',
        'toolgate.config.ts',
        '--scenarios',
        'eval/scenarios',
        '--trials',
        '2',
        '--out',
        out,
        '--no-progress',
      ],
      { cwd: EXAMPLE_DIR, env: { BILLING_URL: service.url, BILLING_RECONCILE_FAST: '1' } },
    );
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      isolation: { isolated: boolean; modulesWithoutReset: string[] };
      trials: {
        scenario: string;
        trial: number;
        reasons: string[];
        transcript: { kind: string; tool?: string; envelope?: { operation_id: string | null } | null }[];
      }[];
    };
    // Without the reset the second credit would find the invoice already credited and fail its state check.
    expect(report.trials.map((t) => [t.scenario, t.trial, t.reasons]).sort()).toEqual([
      ['billing-credit-direct', 1, []],
      ['billing-credit-direct', 2, []],
      ['billing-credit-lost-answer', 1, []],
      ['billing-credit-lost-answer', 2, []],
    ]);
    expect(report.isolation).toEqual({ isolated: true, modulesWithoutReset: [] });
    expect(result.stderr).not.toContain('no reset hook');
    expect(result.code).toBe(0);
    const data = new ServiceData(join(dir, 'billing.db'));
    // The service holds what the last trial did and nothing of the three before it: the reset before
    // it removed the other scenario's credit, and the one credit left is this trial's own operation.
    expect(data.creditNotes('inv_acme_0001')).toEqual([]);
    const last = report.trials.find((t) => t.scenario === 'billing-credit-lost-answer' && t.trial === 2);
    const credit = last?.transcript.find((e) => e.kind === 'call' && e.tool === 'billing_issue_credit_note');
    const operationId = credit?.envelope?.operation_id;
    expect(operationId).toEqual(expect.any(String));
    // The answer was lost after the service applied the credit: still exactly one credit note.
    expect(data.creditNotes('inv_acme_0002').map((n) => [n.amount_cents, n.idempotency_key])).toEqual([
      [2500, operationId],
    ]);
  }, 180_000);

  it('fails every trial against a service it cannot reset, saying why, and credits nothing', async () => {
    // A service started without BILLING_ENABLE_RESET=1 serves no /admin/reset: the trial does not run
    // in a world nobody reset, it fails with the hook's reason.
    const plain = await startBillingService({ dbFile: join(dir, 'plain.db') });
    try {
      const out = join(dir, 'plain-out');
      const result = await runToolgate(
        [
          'eval',
          '--config',
          'toolgate.config.ts',
          '--scenarios',
          'eval/scenarios',
          '--filter',
          'billing-credit-direct',
          '--out',
          out,
          '--no-progress',
        ],
        { cwd: EXAMPLE_DIR, env: { BILLING_URL: plain.url, BILLING_RECONCILE_FAST: '1' } },
      );
      expect(result.code).toBe(1);
      const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
        trials: { reasons: string[] }[];
      };
      expect(report.trials[0]?.reasons.join(' ')).toContain(
        `the billing service at ${plain.url} did not reset (HTTP 401); start it with BILLING_ENABLE_RESET=1`,
      );
      const data = new ServiceData(join(dir, 'plain.db'));
      expect(data.creditNotes('inv_acme_0001')).toEqual([]);
    } finally {
      await plain.stop();
    }
  }, 120_000);
});
