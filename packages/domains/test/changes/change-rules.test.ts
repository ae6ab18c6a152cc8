import type { PolicyException, Principal } from 'toolgate';
import { describe, expect, it } from 'vitest';
import {
  type ChangeRequest,
  evaluateChangeRequest,
  type PolicyFacts,
} from '../../src/changes/change-policy.ts';
import { findCredentials } from '../../src/changes/credential-scan.ts';
import { demoServices } from '../../src/changes/demo-catalog.ts';
import { nextWindow, windowHolding } from '../../src/changes/maintenance-windows.ts';
import { formatAtOffset, offsetMinutesOf } from '../../src/changes/rfc3339.ts';
import { approvalFor, assessRisk } from '../../src/changes/risk-policy.ts';
import { resolveServices } from '../../src/changes/service-resolution.ts';
import type { ChangeFreeze } from '../../src/changes/systems/change-platform/change-freeze-calendar.ts';

const payments = demoServices.find((d) => d.service.serviceId === 'payments-api')!;
const paymentWindows = payments.windows[0]!.rules;
const catalog = demoServices.filter((d) => d.service.tenant === 'acme').map((d) => d.service);
/** Saturday 2026-08-15 00:00 UTC. */
const SATURDAY = Date.UTC(2026, 7, 15);
const H = 3_600_000;

function windowException(exceptionId: string, grantedBy: string): PolicyException {
  return {
    exception_id: exceptionId,
    tenant: 'acme',
    kind: 'maintenance_window',
    target: { environment: 'production', service_id: 'payments-api' },
    starts_at: new Date(SATURDAY).toISOString(),
    ends_at: new Date(SATURDAY + 24 * H).toISOString(),
    reason: 'Vendor patch window agreed with the payments team',
    granted_by: grantedBy,
    granted_at: new Date(SATURDAY - 48 * H).toISOString(),
    revoked_by: null,
    revoked_at: null,
  };
}

describe('maintenance windows', () => {
  it('holds a change only when it starts and ends inside one occurrence', () => {
    expect(windowHolding(paymentWindows, SATURDAY + 7 * H, 60)).not.toBeNull();
    expect(windowHolding(paymentWindows, SATURDAY + 9.5 * H, 60)).toBeNull();
    expect(windowHolding(paymentWindows, SATURDAY + 12 * H, 15)).toBeNull();
  });

  it('names the next window long enough for the change, skipping unusable ones', () => {
    expect(nextWindow(paymentWindows, SATURDAY + 7 * H, 60)?.startAt).toBe(SATURDAY + 30 * H);
    const skipSunday = nextWindow(
      paymentWindows,
      SATURDAY + 7 * H,
      60,
      (o) => o.startAt !== SATURDAY + 30 * H,
    );
    expect(skipSunday?.startAt).toBe(SATURDAY + 7 * 24 * H + 6 * H);
    expect(nextWindow(paymentWindows, SATURDAY, 300)).toBeNull();
  });

  it('reads a window that runs past midnight from the day before', () => {
    const lateNight = [{ weekday: 5, startMinute: 23 * 60, lengthMinutes: 180 }];
    expect(windowHolding(lateNight, SATURDAY + 1 * H, 60)).not.toBeNull();
  });
});

describe('RFC 3339 offsets', () => {
  it('reports times in the caller’s own offset', () => {
    expect(offsetMinutesOf('2026-08-15T02:00:00-05:00')).toBe(-300);
    expect(offsetMinutesOf('2026-08-15T02:00:00Z')).toBe(0);
    expect(formatAtOffset(SATURDAY + 30 * H, -300)).toBe('2026-08-16T01:00:00-05:00');
    expect(formatAtOffset(SATURDAY, 330)).toBe('2026-08-15T05:30:00+05:30');
  });
});

describe('risk and approval policy', () => {
  it('raises, never lowers, the requested risk', () => {
    expect(assessRisk('medium', 'critical', 'production', 60)).toEqual({
      effective: 'medium',
      raisedBecause: null,
    });
    expect(assessRisk('low', 'critical', 'production', 60).effective).toBe('medium');
    expect(assessRisk('low', 'critical', 'production', 180).effective).toBe('high');
    expect(assessRisk('high', 'low', 'test', 30)).toEqual({ effective: 'high', raisedBecause: null });
    expect(assessRisk('low', 'medium', 'production', 300).effective).toBe('medium');
  });

  it('sends production to the production approvers and high risk elsewhere to the owners', () => {
    expect(approvalFor('production', 'low', 'team-x')).toEqual({
      required: true,
      group: 'production-change-approvers',
    });
    expect(approvalFor('staging', 'high', 'team-x')).toEqual({ required: true, group: 'team-x' });
    expect(approvalFor('test', 'medium', 'team-x')).toEqual({ required: false, group: null });
  });
});

describe('credential scan', () => {
  it.each([
    ['password=hunter2 then restart', 'a password assignment'],
    ['use key AKIAIOSFODNN7EXAMPLE for the bucket', 'an AWS access key id'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE', 'a private key block'],
    ['curl -H "Authorization: Bearer abcdefghijklmnop1234"', 'a bearer token'],
    ['connect to postgres://admin:s3cret@db.internal/ledger', 'a connection string with a password'],
    ['set api_key: 9f8e7d6c5b4a', 'a secret or API key assignment'],
    ['export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'a GitHub token'],
    ['call the deploy hook with token: 5b1f0c9e7a3d', 'a token assignment'],
  ])('flags %j', (text, kind) => {
    expect(findCredentials({ implementation_plan: text })).toEqual([{ field: 'implementation_plan', kind }]);
  });

  it('lets prose about credentials pass', () => {
    expect(
      findCredentials({
        implementation_plan: 'Rotate the database password from the vault entry payments/db and restart.',
        rollback_plan: 'Restore the previous token signing key version and verify logins.',
      }),
    ).toEqual([]);
  });
});

describe('service resolution', () => {
  it('ranks the service a human name means first, with look-alikes after it', () => {
    const ranked = resolveServices('payments API', catalog);
    expect(ranked[0]).toMatchObject({ service: { serviceId: 'payments-api' }, score: 1 });
    expect(ranked.map((c) => c.service.serviceId)).toContain('payments-reporting');
    expect(ranked[1]!.score).toBeLessThan(0.7);
  });

  it('matches aliases, plurals and one-letter typos, and finds nothing for unrelated words', () => {
    expect(resolveServices('the checkout site', catalog)[0]?.service.serviceId).toBe('checkout-web');
    expect(resolveServices('ledger databse', catalog)[0]?.service.serviceId).toBe('ledger-db');
    expect(resolveServices('email sender', catalog)[0]?.service.serviceId).toBe('notifications-worker');
    expect(resolveServices('kubernetes cluster', catalog)).toEqual([]);
  });
});

describe('change policy', () => {
  const engineer: Principal = {
    subject: 'eng',
    tenant: 'acme',
    actor: 'operator',
    scopes: new Set(['changes:create', 'changes:create:production']),
  };
  const request: ChangeRequest = {
    service_id: 'payments-api',
    environment: 'production',
    summary: 'Deploy payment timeout configuration update',
    implementation_plan: 'Apply the configuration package and restart instances one at a time.',
    rollback_plan: 'Restore the previous package if the error rate rises for five minutes.',
    start_time: '2026-08-15T02:00:00-05:00',
    duration_minutes: 60,
    risk: 'medium',
  };
  const facts: PolicyFacts = {
    principal: engineer,
    now: SATURDAY - 24 * H,
    service: payments.service,
    suggestions: [],
    windows: paymentWindows,
    freeze: null,
    exceptions: [],
  };

  it("accepts seed 003's example with its documented result", () => {
    const verdict = evaluateChangeRequest(request, facts);
    expect(verdict).toMatchObject({
      accepted: true,
      draft: {
        effective_risk: 'medium',
        approval_required: true,
        approval_group: 'production-change-approvers',
      },
      warnings: [{ code: 'APPROVAL_REQUIRED' }],
    });
  });

  it("gives seed 003's window error: the next window in the caller's offset", () => {
    const verdict = evaluateChangeRequest({ ...request, start_time: '2026-08-15T05:30:00-05:00' }, facts);
    expect(verdict).toMatchObject({
      accepted: false,
      refusal: {
        code: 'MAINTENANCE_WINDOW_REQUIRED',
        field_errors: [
          {
            field: 'start_time',
            code: 'OUTSIDE_APPROVED_WINDOW',
            message: expect.stringContaining('2026-08-16T01:00:00-05:00'),
          },
        ],
      },
    });
  });

  it('lets an exception granted by someone else stand in for the window, and names it', () => {
    const outside = { ...request, start_time: '2026-08-15T05:30:00-05:00' };
    const exception = windowException('exc_01KBA0000000000000000000AA', 'approver.chen');
    const verdict = evaluateChangeRequest(outside, { ...facts, exceptions: [exception] });
    expect(verdict).toMatchObject({
      accepted: true,
      exception: { exception_id: exception.exception_id, granted_by: 'approver.chen' },
      warnings: expect.arrayContaining([
        {
          code: 'MAINTENANCE_WINDOW_EXCEPTION',
          message: expect.stringContaining(`${exception.exception_id}, granted by approver.chen`),
        },
      ]),
    });
    // Inside a window the exception is not needed and not named.
    expect(evaluateChangeRequest(request, { ...facts, exceptions: [exception] })).toMatchObject({
      accepted: true,
      exception: null,
    });
  });

  it("does not apply the requester's own exception, and says so", () => {
    const outside = { ...request, start_time: '2026-08-15T05:30:00-05:00' };
    const own = windowException('exc_01KBA0000000000000000000BB', engineer.subject);
    const verdict = evaluateChangeRequest(outside, { ...facts, exceptions: [own] });
    expect(verdict).toMatchObject({
      accepted: false,
      refusal: {
        code: 'MAINTENANCE_WINDOW_REQUIRED',
        message: expect.stringContaining('granted by the requester'),
        resolution: expect.stringContaining('the requester of a change cannot grant its exception'),
        field_errors: [
          { field: 'start_time', code: 'OUTSIDE_APPROVED_WINDOW' },
          { field: 'start_time', code: 'EXCEPTION_GRANTED_BY_REQUESTER' },
        ],
      },
    });
    // Another approver's exception beside it applies.
    const other = windowException('exc_01KBA0000000000000000000CC', 'approver.chen');
    expect(evaluateChangeRequest(outside, { ...facts, exceptions: [own, other] })).toMatchObject({
      accepted: true,
      exception: { exception_id: other.exception_id },
    });
  });

  it('never lets an exception lift a freeze', () => {
    const outside = { ...request, start_time: '2026-08-15T05:30:00-05:00' };
    const freeze: ChangeFreeze = {
      startsAt: SATURDAY - H,
      endsAt: SATURDAY + 48 * H,
      reason: 'Audit',
      environments: ['production'],
      tenant: '*',
    };
    const verdict = evaluateChangeRequest(outside, {
      ...facts,
      freeze,
      exceptions: [windowException('exc_01KBA0000000000000000000DD', 'approver.chen')],
    });
    expect(verdict).toMatchObject({ accepted: false, refusal: { code: 'CHANGE_FREEZE_ACTIVE' } });
  });

  it('checks authority before the service, and a freeze before the window', () => {
    const noProd = {
      ...facts,
      principal: { ...engineer, scopes: new Set(['changes:create']) },
      service: null,
    };
    expect(evaluateChangeRequest(request, noProd)).toMatchObject({ refusal: { code: 'FORBIDDEN' } });
    const frozen = {
      ...facts,
      freeze: {
        startsAt: SATURDAY,
        endsAt: SATURDAY + 48 * H,
        environments: ['production' as const],
        reason: 'Quarter close',
        tenant: '*',
      },
    };
    const verdict = evaluateChangeRequest({ ...request, start_time: '2026-08-15T05:30:00-05:00' }, frozen);
    expect(verdict).toMatchObject({
      refusal: {
        code: 'CHANGE_FREEZE_ACTIVE',
        resolution: expect.stringContaining('2026-08-22T01:00:00-05:00'),
      },
    });
  });

  it('refuses a start in the past and a retired service', () => {
    expect(evaluateChangeRequest(request, { ...facts, now: SATURDAY + 12 * H })).toMatchObject({
      refusal: {
        code: 'START_TIME_IN_PAST',
        field_errors: [{ field: 'start_time', code: 'MUST_BE_FUTURE' }],
      },
    });
    const retired = catalog.find((s) => s.status === 'retired')!;
    expect(evaluateChangeRequest(request, { ...facts, service: retired })).toMatchObject({
      refusal: { code: 'SERVICE_RETIRED' },
    });
  });
});
