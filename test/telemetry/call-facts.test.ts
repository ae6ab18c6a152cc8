import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OutcomeEnvelope, Principal } from 'toolgate';
import { type App, createApp, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changesDomain } from '../../packages/domains/src/changes/changes-module.ts';
import { formatAtOffset } from '../../packages/domains/src/changes/rfc3339.ts';
import {
  demoPrincipal,
  engineer,
  productionRequest,
  testEnvironmentRequest,
} from '../../packages/domains/test/changes/changes-harness.ts';
import { CLIENT_NAME_MAX } from '../../packages/toolgate/src/gateway/telemetry-layer.ts';
import { GatewayTracing } from '../../packages/toolgate/src/telemetry/call-tracing.ts';
import { FAST_TUNING } from '../operations/harness.ts';
import { callAccepted } from '../support/person-confirms.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';

const approver = demoPrincipal('changes_approver');
const H = 3_600_000;
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/**
 * What a call's audit entry and span say beyond its outcome: the environment the tool declares, the
 * approval and exception the handler reports, what the owning system answered, and the application
 * (the token's, else the MCP client's name).
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`call facts in audit and spans (${target.dialect})`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

    beforeAll(async () => {
      location = await target.create();
      const clock = new ShiftableClock();
      const created = await createApp({
        ...location.config,
        logger: pino({ level: 'silent' }),
        modules: [changesDomain],
        backgroundJobs: false,
        clock,
        operations: FAST_TUNING,
        tracing: new GatewayTracing(provider.getTracer('call-facts-test')),
      });
      await simulationOf(created).seed();
      app = Object.assign(created, { clock });
    });
    afterEach(async () => {
      exporter.reset();
      await simulationOf(app).resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await provider.shutdown();
      await location?.dispose();
    });

    /** The detail of the stored audit row of an operation's call (the change_create entry). */
    async function auditDetail(operationId: string): Promise<Record<string, unknown>> {
      const rows = await app.db.query<{ detail: string }>(
        'SELECT detail FROM audit_log WHERE action = ? AND operation_id = ? ORDER BY seq',
        ['change_create', operationId],
      );
      expect(rows).toHaveLength(1);
      return JSON.parse(rows[0]!.detail) as Record<string, unknown>;
    }
    async function lastAuditDetail(subject: string): Promise<Record<string, unknown>> {
      const rows = await app.db.query<{ detail: string }>(
        'SELECT detail FROM audit_log WHERE action = ? AND subject = ? ORDER BY seq DESC',
        ['change_create', subject],
      );
      return JSON.parse(rows[0]!.detail) as Record<string, unknown>;
    }
    function callSpan() {
      const spans = exporter.getFinishedSpans().filter((s) => s.name === 'tools/call change_create');
      return spans.at(-1)!.attributes;
    }
    const directCall = (
      principal: Principal,
      args: Record<string, unknown>,
      meta?: Record<string, unknown>,
    ) =>
      app.gateway
        .call({ name: 'change_create', arguments: args, ...(meta ? { _meta: meta } : {}) }, principal)
        .then((answer) => answer.envelope) as Promise<OutcomeEnvelope>;

    it('a production change under an exception: environment, approval, exception and platform answer recorded', async () => {
      const request = productionRequest(app, { dry_run: false });
      const startAt = Date.parse(String(request.start_time)) - 30 * 60_000 + 5 * H;
      const exception = await app.operations.exceptions.grant(approver, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'payments-api' },
        starts_at: startAt - H,
        ends_at: startAt + 2 * H,
        reason: 'Card network certificate rotation agreed with the vendor',
      });
      const answer = await callAccepted(app, engineer, 'change_create', {
        ...request,
        start_time: formatAtOffset(startAt, -300),
      });
      expect(answer).toMatchObject({ status: 'completed', result: { created: true } });
      const detail = await auditDetail(answer.operation_id!);
      expect(detail).toMatchObject({
        environment: 'production',
        approval: 'production_approvers',
        exception_id: exception.exception_id,
        dependency_result: 'ok',
      });
      // No other argument value is in the entry.
      expect(JSON.stringify(detail)).not.toContain('payments-api');
      expect(callSpan()).toMatchObject({
        'toolgate.environment': 'production',
        'toolgate.approval': 'production_approvers',
        'toolgate.exception_id': exception.exception_id,
        'toolgate.dependency_result': 'ok',
      });
    });

    it('a low-risk test change needs no approval and names no exception', async () => {
      const answer = await directCall(engineer, testEnvironmentRequest(app, { dry_run: false }));
      expect(answer.status).toBe('completed');
      const detail = await auditDetail(answer.operation_id!);
      expect(detail).toMatchObject({ environment: 'test', approval: 'none', dependency_result: 'ok' });
      expect(detail).not.toHaveProperty('exception_id');
      expect(callSpan()).toMatchObject({ 'toolgate.environment': 'test', 'toolgate.approval': 'none' });
      expect(callSpan()).not.toHaveProperty('toolgate.exception_id');
    });

    it('records what the platform answered when it took nothing', async () => {
      simulationWorld(app.db).faults.arm({
        target: 'change_platform',
        fault: 'unavailable',
        match: { action: 'create_record' },
      });
      const down = await directCall(engineer, testEnvironmentRequest(app, { dry_run: false }));
      expect(down).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE' });
      expect(await auditDetail(down.operation_id!)).toMatchObject({
        environment: 'test',
        dependency_result: 'unavailable',
        retryable: true,
      });
      expect(callSpan()).toMatchObject({ 'toolgate.dependency_result': 'unavailable' });
    });

    it('refused input records no environment: only validated, declared values are recorded', async () => {
      const answer = await directCall(engineer, {
        ...testEnvironmentRequest(app),
        environment: 'moon-base',
      });
      expect(answer.code).toBe('INVALID_ARGUMENT');
      const detail = await lastAuditDetail(engineer.subject);
      expect(detail).not.toHaveProperty('environment');
      expect(JSON.stringify(detail)).not.toContain('moon-base');
      expect(callSpan()).not.toHaveProperty('toolgate.environment');
    });

    it("names the MCP client's application when the token names none, bounded", async () => {
      const asClient = (name: unknown) =>
        directCall(engineer, testEnvironmentRequest(app, { dry_run: true }), {
          [CLIENT_INFO]: { name, version: '1.0.0' },
        });
      await asClient('Release Assistant');
      expect(await lastAuditDetail(engineer.subject)).toMatchObject({ application: 'Release Assistant' });
      expect(callSpan()).toMatchObject({ 'toolgate.application': 'Release Assistant' });

      await asClient('x'.repeat(500));
      expect((await lastAuditDetail(engineer.subject)).application).toBe('x'.repeat(CLIENT_NAME_MAX));

      await asClient('evil\nINFO forged log line');
      expect(await lastAuditDetail(engineer.subject)).not.toHaveProperty('application');
      expect(callSpan()).not.toHaveProperty('toolgate.application');

      await asClient(42);
      expect(await lastAuditDetail(engineer.subject)).not.toHaveProperty('application');

      // The token's application comes first.
      const fromToken: Principal = { ...engineer, application: 'change-console' };
      await directCall(fromToken, testEnvironmentRequest(app, { dry_run: true }), {
        [CLIENT_INFO]: { name: 'Release Assistant', version: '1.0.0' },
      });
      expect(await lastAuditDetail(engineer.subject)).toMatchObject({ application: 'change-console' });
    });
  });
}
