import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALERT_RULES, binary, OPS_DIR, shippedAlerts } from '../../../../test/ops/prometheus.ts';
import { GatewayMetrics } from '../../src/telemetry/metrics.ts';

const promtool = binary('promtool');
const UNIT_TESTS = join(OPS_DIR, 'prometheus/tests');
/** Series the rules use that no GatewayMetrics registers: Prometheus's own, and the policy layer's. */
const FROM_ELSEWHERE = new Set(['up', 'toolgate_policy_denials_total']);

if (!promtool) {
  console.warn(
    'SKIPPED: promtool is not installed, so the alert rules are not checked here (bash .ci/ensure-prometheus.sh).',
  );
}

describe('the shipped alert rules', () => {
  it.runIf(!promtool && process.env.CI)('have promtool in CI', () => {
    expect.fail('promtool is missing: .ci/run installs it with .ci/ensure-prometheus.sh');
  });

  it.runIf(promtool)('pass promtool check rules', () => {
    const out = execFileSync(promtool!, ['check', 'rules', ALERT_RULES], { encoding: 'utf8' });
    expect(out).toContain(`SUCCESS: ${shippedAlerts().length} rules found`);
  });

  it.runIf(promtool)('pass their promtool unit tests', () => {
    const files = readdirSync(UNIT_TESTS).filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThan(0);
    const out = execFileSync(promtool!, ['test', 'rules', ...files], { cwd: UNIT_TESTS, encoding: 'utf8' });
    expect(out).toContain('SUCCESS');
  });

  it('each have a severity, a summary and a runbook that says what it means, where to look and what to do', () => {
    for (const rule of shippedAlerts()) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(info|warning|critical)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook, rule.alert).toMatch(/^Means: .+ Look at: .+ Do: .+/s);
    }
  });

  it('are each unit-tested both firing and silent', () => {
    const tested = new Map<string, { fires: boolean; silent: boolean }>();
    for (const file of readdirSync(UNIT_TESTS).filter((f) => f.endsWith('.yml'))) {
      const doc = parse(readFileSync(join(UNIT_TESTS, file), 'utf8')) as {
        tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
      };
      for (const check of doc.tests.flatMap((t) => t.alert_rule_test ?? [])) {
        const seen = tested.get(check.alertname) ?? { fires: false, silent: false };
        if ((check.exp_alerts ?? []).length > 0) seen.fires = true;
        else seen.silent = true;
        tested.set(check.alertname, seen);
      }
    }
    for (const rule of shippedAlerts()) {
      expect(tested.get(rule.alert), rule.alert).toEqual({ fires: true, silent: true });
    }
  });

  it('ship in the package beside the dashboard', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: join(OPS_DIR, '..'),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { files: { path: string }[] }[];
    const paths = packed!.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['ops/prometheus/toolgate-alerts.yml', 'ops/grafana/toolgate-dashboard.json']),
    );
  });

  it('use only metric names the gateway exports', async () => {
    const exported = new Set((await new GatewayMetrics().registry.getMetricsAsJSON()).map((m) => m.name));
    for (const rule of shippedAlerts()) {
      for (const name of rule.expr.match(/\b(toolgate_[a-z_]+|up)\b/g) ?? []) {
        const base = name.replace(/_(bucket|sum|count)$/, '');
        expect(exported.has(base) || FROM_ELSEWHERE.has(name), `${rule.alert}: ${name}`).toBe(true);
      }
    }
  });
});
