import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ParcelLedger,
  parcelTools,
  SECRET_STREET,
  shipArgs,
  shipper,
} from '../../../../test/operator/parcel-tools.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { type TracingSetup, tracingFromEnvironment } from '../../src/telemetry/tracing-setup.ts';
import { startTestGateway, type TestGateway } from '../../src/testing/test-gateway.ts';
import type { ShiftableClock } from '../../src/time/clock.ts';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: string | number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: OtlpAttribute[];
}

/** A minimal OTLP/HTTP JSON receiver: keeps every body posted to /v1/traces. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('application/json')) {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.boolValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

describe('OpenTelemetry tracing over OTLP/HTTP JSON', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let setup: TracingSetup;
  let gw: TestGateway;
  const ledger: ParcelLedger = { reviews: [], traceparents: [] };

  beforeAll(async () => {
    receiver = await startReceiver();
    setup = tracingFromEnvironment({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'toolgate-under-test',
    });
    gw = await startTestGateway({
      tools: parcelTools(ledger),
      app: { tracing: setup.tracing, backgroundJobs: false },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await setup?.shutdown();
    receiver?.server.close();
  });

  async function clientWithTraceparent(who: TokenSubject, traceparent: string) {
    const token = await gw.tokenFor(who);
    const client = new Client({ name: 'trace-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gw.url), {
        requestInit: { headers: { authorization: `Bearer ${token}`, traceparent } },
      }),
    );
    return { client, token };
  }

  it('continues the caller traceparent for a read and a write, with bounded attributes and no secrets', async () => {
    const readTrace = randomBytes(16).toString('hex');
    const readParent = randomBytes(8).toString('hex');
    const writeTrace = randomBytes(16).toString('hex');
    const writeParent = randomBytes(8).toString('hex');
    const reader = await clientWithTraceparent(shipper(), `00-${readTrace}-${readParent}-01`);
    const writer = await clientWithTraceparent(shipper(), `00-${writeTrace}-${writeParent}-01`);
    const key = `trace-${randomUUID()}`;
    await reader.client.callTool({ name: 'parcels_peek', arguments: { parcel_id: 'pcl_1' } });
    const written = await writer.client.callTool({ name: 'parcels_ship', arguments: shipArgs(key) });
    const operationId = (written.structuredContent as { operation_id: string }).operation_id;
    (gw.app.clock as ShiftableClock).shift(600_000);
    await gw.app.operations.reconciler.runOnce();
    await reader.client.close();
    await writer.client.close();
    await setup.shutdown();

    const text = receiver.bodies.join('\n');
    const spans: OtlpSpan[] = receiver.bodies.flatMap((b) =>
      (JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap(
        (r) => r.scopeSpans.flatMap((s) => s.spans),
      ),
    );
    expect(text).toContain('toolgate-under-test');

    const read = spans.find((s) => s.name === 'tools/call parcels_peek')!;
    expect(read).toMatchObject({ traceId: readTrace, parentSpanId: readParent });
    expect(attr(read, 'toolgate.tool')).toBe('parcels_peek');
    expect(attr(read, 'toolgate.contract_version')).toBe('1.0.0');
    expect(attr(read, 'toolgate.status')).toBe('completed');
    expect(attr(read, 'toolgate.replayed')).toBe(false);
    expect(attr(read, 'toolgate.tenant')).toBe('acme');
    const readSteps = spans.filter((s) => s.parentSpanId === read.spanId).map((s) => s.name);
    expect(readSteps).toEqual(['toolgate.execute']);

    const write = spans.find((s) => s.name === 'tools/call parcels_ship')!;
    expect(write).toMatchObject({ traceId: writeTrace, parentSpanId: writeParent });
    expect(attr(write, 'toolgate.status')).toBe('outcome_unknown');
    expect(attr(write, 'toolgate.code')).toBe('OUTCOME_UNKNOWN');
    expect(attr(write, 'toolgate.operation_id')).toBe(operationId);
    const writeSteps = spans.filter((s) => s.parentSpanId === write.spanId).map((s) => s.name);
    expect(writeSteps.sort()).toEqual(['toolgate.execute', 'toolgate.reserve', 'toolgate.settle']);
    const execute = spans.find((s) => s.parentSpanId === write.spanId && s.name === 'toolgate.execute')!;
    // The handler got the execution span's traceparent, so its backend calls continue the trace.
    expect(ledger.traceparents).toContain(`00-${writeTrace}-${execute.spanId}-01`);

    const reconcile = spans.find((s) => s.name === 'toolgate.reconcile')!;
    expect(attr(reconcile, 'toolgate.operation_id')).toBe(operationId);
    expect(attr(reconcile, 'toolgate.reconcile.result')).toBe('escalated');

    const [audit] = await gw.app.db.query(
      'SELECT trace_id FROM audit_log WHERE operation_id = ? AND action = ?',
      [operationId, 'parcels_ship'],
    );
    expect(audit).toEqual({ trace_id: writeTrace });

    for (const secret of [
      SECRET_STREET,
      'Hiddenville',
      'Birthday present',
      'ord_4711',
      key,
      reader.token,
      writer.token,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
