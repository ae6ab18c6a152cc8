import { randomUUID } from 'node:crypto';
import { simulationExtension } from '@toolgate/simulation';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { changesDomain } from '../../packages/domains/src/changes/changes-module.ts';
import { type ParcelLedger, parcelTools, reviewer, shipper } from '../operator/parcel-tools.ts';
import { testDomain } from './test-domain.ts';

const H = 3_600_000;

/** One person holding every operator scope of acme: reviews, confirms, grants exceptions. */
export const CONSOLE_OPERATOR: TokenSubject = {
  sub: 'ops.lindgren-whitaker',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read', 'operations:review', 'operations:confirm', 'changes:approve'],
};
/** The same authority in a tenant where nothing happened: every view shows its empty state. */
export const QUIET_OPERATOR: TokenSubject = { ...CONSOLE_OPERATOR, sub: 'ops.quiet', tenant: 'initech' };
/** Who asked for the parked calls (a customer; another person must approve them). */
export const REQUESTER: TokenSubject = {
  sub: 'alice.requester-with-a-long-subject-name',
  tenant: 'acme',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
};

export interface ConsoleWorld {
  readonly gw: TestGateway;
  /** Operations in the review queue, the one resolved, and the calls parked for an approver. */
  readonly reviewIds: readonly string[];
  readonly resolvedId: string;
  readonly parkedIds: readonly string[];
  readonly exceptionIds: readonly string[];
}

async function operatorCall(
  gw: TestGateway,
  who: TokenSubject | string,
  method: string,
  path: string,
  body: unknown,
) {
  const response = await fetch(new URL(path, gw.origin), {
    method,
    headers: { authorization: `Bearer ${await gw.tokenFor(who)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * A gateway whose acme tenant has something in every console view, with cells longer than their
 * columns: parcels waiting for review (long titles and order ids), one resolved, calls parked for an
 * approver (long questions), and exceptions, one of them ending within 24 hours.
 */
export async function startConsoleWorld(): Promise<ConsoleWorld> {
  const ledger: ParcelLedger = { reviews: [] };
  const gw = await startTestGateway({
    extensions: [simulationExtension],
    modules: [changesDomain, testDomain()],
    tools: parcelTools(ledger),
    app: { backgroundJobs: false, operations: { reconcileBackoffMs: 0 } },
  });
  try {
    const titles = [
      'Replacement espresso machine for the fourth-floor kitchen, fragile, deliver before the quarterly all-hands meeting',
      'Birthday present',
      'Conference badges and lanyards for the Northern Europe partner summit in Gothenburg, two boxes',
    ];
    const reviewIds: string[] = [];
    for (const [i, title] of titles.entries()) {
      const parked = await gw.callTool(shipper(), 'parcels_ship', {
        order_id: i === 0 ? 'ord_2026-12-logistics-eu-north-000471' : `ord_47${i}`,
        title,
        address: { line1: '7 Secret Lane', city: 'Hiddenville' },
        idempotency_key: `console-world-${randomUUID()}`,
      });
      reviewIds.push(parked.operation_id!);
    }
    await gw.app.operations.reconciler.runOnce();
    const resolvedId = reviewIds.shift()!;
    await operatorCall(gw, reviewer(), 'POST', `/operator/v1/operations/${resolvedId}/resolve`, {
      outcome: 'completed',
      note: 'The carrier portal shows the pickup scan at 09:14 and the signature of the front desk',
      reference: 'TRK-2024-0001',
    });
    const parkedIds: string[] = [];
    for (const [account, amount, memo] of [
      ['acc-9', 5_000, 'rent'],
      [
        'acc-0042-savings-joint',
        125_000,
        'Quarterly transfer to the joint savings account agreed in November',
      ],
    ] as const) {
      const parked = await gw.callTool(REQUESTER, 'testing_credit_approved', {
        account,
        amount,
        memo,
        idempotency_key: `console-world-${randomUUID()}`,
      });
      parkedIds.push(parked.operation_id!);
    }
    const now = Date.now();
    const exceptionIds: string[] = [];
    for (const [service, starts, ends, reason] of [
      [
        'payments-api',
        now - H,
        now + 5 * H,
        'Card network certificate rotation agreed with the vendor, window extended by the incident commander',
      ],
      [
        'checkout-web',
        now + 20 * H,
        now + 26 * H,
        'Black Friday readiness rehearsal with the storefront team',
      ],
    ] as const) {
      const granted = await operatorCall(gw, 'changes_approver', 'POST', '/operator/v1/exceptions', {
        kind: 'maintenance_window',
        target: { service_id: service, environment: 'production' },
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(ends).toISOString(),
        reason,
      });
      exceptionIds.push(String(granted.exception_id));
    }
    return { gw, reviewIds, resolvedId, parkedIds, exceptionIds };
  } catch (error) {
    await gw.close();
    throw error;
  }
}
