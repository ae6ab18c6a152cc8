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
 * service's own tables say what happened.
 */
describe('toolgate eval of the billing tools', () => {
  let dir: string;
  let service: Started;
  beforeAll(async () => {
    linkToolgatePackage();
    dir = mkdtempSync(join(tmpdir(), 'billing-eval-'));
    service = await startBillingService({ dbFile: join(dir, 'billing.db'), port: SERVICE_PORT });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes its scenarios with the reference agent, one credit note despite the lost answer', async () => {
    const out = join(dir, 'out');
    const result = await runToolgate(
      [
        'eval',
        '--config',
        'toolgate.config.ts',
        '--scenarios',
        'eval/scenarios',
        '--out',
        out,
        '--no-progress',
      ],
      { cwd: EXAMPLE_DIR, env: { BILLING_URL: service.url, BILLING_RECONCILE_FAST: '1' } },
    );
    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      trials: { scenario: string; passed: boolean; reasons: string[] }[];
    };
    expect(report.trials.map((t) => [t.scenario, t.reasons]).sort()).toEqual([
      ['billing-credit-direct', []],
      ['billing-credit-lost-answer', []],
    ]);
    expect(result.code).toBe(0);
    const data = new ServiceData(join(dir, 'billing.db'));
    // The answer was lost after the service applied the credit: still exactly one credit note.
    expect(data.creditNotes('inv_acme_0002').map((n) => n.amount_cents)).toEqual([2500]);
    expect(data.creditNotes('inv_acme_0001').map((n) => n.amount_cents)).toEqual([4000]);
  }, 120_000);
});
