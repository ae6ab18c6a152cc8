import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { simulationExtension } from '@toolgate/simulation';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParcelLedger, parcelTools, shipArgs, shipper } from '../operator/parcel-tools.ts';
import { testDomain } from '../support/test-domain.ts';
import {
  ALERT_RULES,
  binary,
  DASHBOARD,
  type RunningPrometheus,
  startPrometheus,
  waitFor,
} from './prometheus.ts';

const prometheus = binary('prometheus');
if (!prometheus) {
  console.warn(
    'SKIPPED: prometheus is not installed, so the alert rules and the dashboard are not run against it (bash .ci/ensure-prometheus.sh).',
  );
}

/**
 * The shipped rules as the test runs them: every `for:` shortened to 1s (Prometheus evaluates every
 * second here), so an alert goes pending and then firing within seconds. Expressions and thresholds are
 * the shipped ones.
 */
function renderedRules(): string {
  return readFileSync(ALERT_RULES, 'utf8').replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
}

/** The dashboard's queries, with Grafana's rate window replaced by one that spans the test's scrapes. */
function dashboardQueries(): { panel: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { title: string; type: string; targets?: { expr: string }[] }[];
  };
  const drawn = dashboard.panels.filter((p) => p.type !== 'row');
  expect(drawn.filter((p) => !p.targets?.length).map((p) => p.title)).toEqual([]);
  return drawn.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr.replaceAll('$__rate_interval', '20s') })),
  );
}

interface PromAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  value: string;
}
interface Vector {
  resultType: string;
  result: { metric: Record<string, string>; value: [number, string] }[];
}

const banker = (name: string): TokenSubject => ({
  sub: name,
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
});
const flooder: TokenSubject = { ...banker('flooder'), actor: 'service' };

describe.runIf(prometheus)(
  'the shipped rules and dashboard against a real Prometheus scraping a gateway',
  () => {
    let gw: TestGateway;
    let prom: RunningPrometheus;
    const ledger: ParcelLedger = { reviews: [] };
    const query = async (expr: string) => prom.api<Vector>(`query?query=${encodeURIComponent(expr)}`);
    const scalar = async (expr: string) => Number((await query(expr)).result[0]?.value[1] ?? Number.NaN);

    beforeAll(async () => {
      gw = await startTestGateway({
        extensions: [simulationExtension],
        modules: [testDomain()],
        tools: parcelTools(ledger),
        app: {
          limits: { perPrincipal: 8 },
          operations: { reconcileIntervalMs: 50, reconcileBackoffMs: 50 },
        },
      });
      prom = await startPrometheus(new URL(gw.origin).host, renderedRules());
      await waitFor('Prometheus scrapes the gateway', async () => (await scalar('up{job="toolgate"}')) === 1);
    });
    afterAll(async () => {
      await prom?.stop();
      await gw?.close();
    });

    /** Calls of every kind the dashboard draws: reads, writes, a replay, a conflict, refusals over the limit. */
    async function traffic(round: number): Promise<number> {
      const key = `tally-${round}-${randomUUID()}`;
      const credit = { account: `acc-${round}`, amount: 10 + round, idempotency_key: key };
      const calls: Promise<unknown>[] = [
        gw.callTool(banker('payer'), 'testing_credit_account', credit),
        gw.callTool(shipper(), 'parcels_peek', { parcel_id: `p-${round}` }),
      ];
      await Promise.all(calls);
      await gw.callTool(banker('payer'), 'testing_credit_account', credit);
      await gw.callTool(banker('payer'), 'testing_credit_account', { ...credit, amount: 99 });
      for (let i = 0; i < 8; i += 1) await gw.callTool(flooder, 'parcels_peek', { parcel_id: 'p-flood' });
      return calls.length + 10;
    }

    it('sees the review backlog alert go firing once a lost answer reaches the review queue', async () => {
      expect((await prom.api<{ groups: unknown[] }>('rules')).groups).toHaveLength(3);
      const parked = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`lost-${randomUUID()}`));
      expect(parked.status).toBe('outcome_unknown');
      await expect.poll(async () => (await gw.operation(parked.operation_id!))?.status).toBe('needs_review');

      const seen: string[] = [];
      await expect
        .poll(
          async () => {
            const { alerts } = await prom.api<{ alerts: PromAlert[] }>('alerts');
            const waiting = alerts.find((a) => a.labels.alertname === 'ToolgateReviewWaiting');
            if (waiting && seen.at(-1) !== waiting.state) seen.push(waiting.state);
            return waiting?.state;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe('firing');
      const { alerts } = await prom.api<{ alerts: PromAlert[] }>('alerts');
      const firing = alerts.find((a) => a.labels.alertname === 'ToolgateReviewWaiting')!;
      expect(firing.labels.severity).toBe('warning');
      expect(Number(firing.value)).toBe(1);
      expect(firing.annotations.summary).toBe(
        '1 operation(s) have waited for a human decision for 30 minutes',
      );
      expect(firing.annotations.runbook).toMatch(/^Means: /);
      expect(seen.at(-1)).toBe('firing');
      // Only the review backlog is wrong here: the oldest review is seconds old, the database is up and the
      // reconciler runs, so none of their alerts is even pending.
      const names = new Set(alerts.map((a) => a.labels.alertname));
      for (const quiet of [
        'ToolgateReviewBacklogStale',
        'ToolgateUnknownOutcomesNotSettling',
        'ToolgateDatabaseNotReady',
        'ToolgateReconcilerStalled',
        'ToolgateTargetDown',
      ]) {
        expect(names.has(quiet), quiet).toBe(false);
      }
    });

    it('answers every dashboard query with data once traffic has been scraped', async () => {
      const sent = await traffic(1);
      await expect
        .poll(() => scalar('sum(toolgate_tool_calls_total)'), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(sent);
      const before = await scalar('sum(toolgate_tool_calls_total)');
      const more = await traffic(2);
      await expect
        .poll(() => scalar('sum(toolgate_tool_calls_total)'), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(before + more);

      const queries = dashboardQueries();
      expect(queries.length).toBeGreaterThanOrEqual(11);
      for (const { panel, expr } of queries) {
        const vector = await query(expr);
        const finite = vector.result.filter((r) => Number.isFinite(Number(r.value[1])));
        expect(finite.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      }
      const limited = await query('sum by (actor) (toolgate_rate_limited_total)');
      expect(limited.result.map((r) => r.metric.actor)).toEqual(['service']);
      const conflicts = await scalar('sum(toolgate_tool_errors_total{code="IDEMPOTENCY_CONFLICT"})');
      expect(conflicts).toBe(2);
      expect(await scalar('sum(toolgate_tool_idempotent_replay_total)')).toBe(2);
    });

    it('accepts every PromQL expression docs/observability.md shows', async () => {
      const doc = readFileSync(new URL('../../docs/observability.md', import.meta.url), 'utf8');
      const expressions = [...doc.matchAll(/```promql\n([\s\S]*?)```/g)].flatMap(([, block]) =>
        block!
          .split(/\n\s*\n|^#.*$/m)
          .map((e) => e.replace(/^#.*$/gm, '').trim())
          .filter(Boolean),
      );
      expect(expressions.length).toBeGreaterThanOrEqual(4);
      for (const expr of expressions) await expect(query(expr), expr).resolves.toBeDefined();
    });
  },
);
