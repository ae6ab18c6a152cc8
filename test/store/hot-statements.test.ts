import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAtOffset } from '../../packages/domains/src/changes/rfc3339.ts';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

/** One tool call of a round, named so a failure can say which call rebuilt a row constructor. */
interface HotCall {
  readonly label: string;
  run(): Promise<OutcomeEnvelope>;
  readonly expect: OutcomeEnvelope['status'];
  /** The answer's code when the path is a refusal an agent meets in normal use (a possible duplicate). */
  readonly code?: string;
  readonly replayed?: boolean;
}

interface Rebuild {
  readonly label: string;
  readonly source: string;
}

interface OrderFixture {
  order_id: string;
  label: string | null;
}
interface ServiceFixture {
  service_id: string;
  next_production_window: { starts_at: string } | null;
}

/**
 * better-sqlite3 rebuilds a statement's row constructor with the global `Function` whenever SQLite
 * re-prepared the statement since its last row (SQLITE_STMTSTATUS_REPREPARE). With STAT4, SQLite
 * re-prepares a statement whose bound parameter it marks as plan-relevant on every execution, so a
 * hot statement of that shape costs a re-plan and a `Function` compile per call. After a warm-up, the
 * common successful calls of every reference tool must not call `Function` at all.
 */
describe('hot statements on SQLite', () => {
  let gw: StartedGateway;
  let seq = 0;
  const key = (what: string) => `hot-${what}-${process.pid}-${++seq}`.padEnd(16, '0');

  /** Clients whose users accept every confirmation (production changes and commits ask them). */
  const confirming = new Map<string, Awaited<ReturnType<typeof confirmingClient>>['client']>();
  const callConfirmed = async (principal: string, name: string, args: Record<string, unknown>) => {
    let client = confirming.get(principal);
    if (!client) {
      client = (await confirmingClient(gw.url, await gw.tokenFor(principal), [{ action: 'accept' }])).client;
      confirming.set(principal, client);
    }
    return (await client.callTool({ name, arguments: args })).structuredContent as unknown as OutcomeEnvelope;
  };

  beforeAll(async () => {
    gw = await startGateway({ testApi: true, app: { backgroundJobs: false } });
  });
  afterAll(async () => {
    for (const client of confirming.values()) await client.close();
    await gw?.close();
  });

  /** The calls of one round: reads, writes with fresh keys, replays of the same key, dry runs. */
  async function roundCalls(round: number): Promise<HotCall[]> {
    const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as {
      orders: { all: OrderFixture[] };
      changes: { services: ServiceFixture[] };
    };
    const orderId = (label: string) => {
      const found = fixtures.orders.all.find((o) => o.label === label);
      if (!found) throw new Error(`no fixture order ${label}`);
      return found.order_id;
    };
    const editable = orderId('alice-editable');
    const inTransit = orderId('alice-in-transit');
    const payments = fixtures.changes.services.find((s) => s.service_id === 'payments-api');
    const windowStart = Date.parse(payments?.next_production_window?.starts_at ?? '');
    if (Number.isNaN(windowStart)) throw new Error('payments-api has no production window');
    const address = { ...ADDRESS_SAMPLES.clean_us!, address_line_2: `Suite ${round + 1}` };
    let operationId = '';
    let changeId = '';
    let draftId = '';
    let againId = '';
    const saveOperation = (envelope: OutcomeEnvelope) => {
      operationId = envelope.operation_id ?? operationId;
      return envelope;
    };
    const change = {
      service_id: 'payments-api',
      environment: 'production',
      summary: `Deploy payment timeout configuration update ${round}`,
      implementation_plan:
        'Validate current values, apply the approved configuration package, restart one instance at a time.',
      rollback_plan:
        'Rollback if the error rate exceeds the threshold for five minutes: restore the previous package.',
      start_time: formatAtOffset(windowStart + 15 * 60_000, -300),
      duration_minutes: 30,
      risk: 'medium',
      idempotency_key: key('change'),
    };
    const addressChange = async () => {
      const read = await gw.callTool('acme-customer-alice', 'orders_get', { order_id: editable });
      return {
        order_id: editable,
        expected_order_version: (read.result as { version: number }).version,
        new_address: address,
        idempotency_key: key('address'),
      };
    };
    let addressArgs: Record<string, unknown> = {};
    const redirect = { order_id: inTransit, new_address: address, idempotency_key: key('redirect') };
    const draft = {
      project_id: 'WEB',
      title: `Hot statement check ${round} ${seq}: banner overlaps the footer`,
      idempotency_key: key('draft'),
    };
    const commitKey = key('commit');
    return [
      {
        label: 'orders_get',
        run: () => gw.callTool('acme-customer-alice', 'orders_get', { order_id: editable }),
        expect: 'completed',
      },
      {
        label: 'orders_get (support agent)',
        run: () => gw.callTool('acme-support-sam', 'orders_get', { order_id: inTransit }),
        expect: 'completed',
      },
      {
        label: 'orders_change_unshipped_address',
        run: async () => {
          addressArgs = await addressChange();
          return saveOperation(
            await gw.callTool('acme-customer-alice', 'orders_change_unshipped_address', addressArgs),
          );
        },
        expect: 'completed',
      },
      {
        label: 'orders_change_unshipped_address (replay)',
        run: () => gw.callTool('acme-customer-alice', 'orders_change_unshipped_address', addressArgs),
        expect: 'completed',
        replayed: true,
      },
      {
        label: 'operations_get (address change)',
        run: () => gw.callTool('acme-customer-alice', 'operations_get', { operation_id: operationId }),
        expect: 'completed',
      },
      {
        label: 'shipments_request_redirect',
        run: async () =>
          saveOperation(await gw.callTool('acme-support-sam', 'shipments_request_redirect', redirect)),
        expect: 'submitted',
      },
      {
        label: 'shipments_request_redirect (replay)',
        run: () => gw.callTool('acme-support-sam', 'shipments_request_redirect', redirect),
        expect: 'submitted',
        replayed: true,
      },
      {
        label: 'shipments_get_redirect',
        run: () => gw.callTool('acme-support-sam', 'shipments_get_redirect', { order_id: inTransit }),
        expect: 'completed',
      },
      {
        label: 'cmdb_service_resolve',
        run: () => gw.callTool('changes_engineer', 'cmdb_service_resolve', { query: 'payments API' }),
        expect: 'completed',
      },
      {
        label: 'change_search',
        run: () =>
          gw.callTool('changes_engineer', 'change_search', {
            service_id: 'payments-api',
            environment: 'production',
          }),
        expect: 'completed',
      },
      {
        label: 'change_search (text, state)',
        run: () =>
          gw.callTool('changes_engineer', 'change_search', { text: 'timeout', state: 'pending_approval' }),
        expect: 'completed',
      },
      {
        label: 'change_create (dry run)',
        run: () => gw.callTool('changes_engineer', 'change_create', change),
        expect: 'validated',
      },
      {
        label: 'change_create',
        run: async () => {
          const created = await callConfirmed('changes_engineer', 'change_create', {
            ...change,
            dry_run: false,
          });
          changeId = (created.result as { change_id?: string } | null)?.change_id ?? '';
          return saveOperation(created);
        },
        expect: 'completed',
      },
      {
        label: 'change_create (replay)',
        run: () => gw.callTool('changes_engineer', 'change_create', { ...change, dry_run: false }),
        expect: 'completed',
        replayed: true,
      },
      {
        label: 'change_create (possible duplicate)',
        run: () =>
          gw.callTool('changes_engineer', 'change_create', {
            ...change,
            dry_run: false,
            idempotency_key: key('change-again'),
          }),
        expect: 'requires_confirmation',
        code: 'POSSIBLE_DUPLICATE',
      },
      {
        label: 'change_create (confirmed new)',
        run: () =>
          callConfirmed('changes_engineer', 'change_create', {
            ...change,
            dry_run: false,
            confirm_new_change: true,
            idempotency_key: key('change-confirmed'),
          }),
        expect: 'completed',
      },
      {
        label: 'change_get',
        run: () => gw.callTool('changes_engineer', 'change_get', { change_id: changeId }),
        expect: 'completed',
      },
      {
        label: 'operations_get (change)',
        run: () => gw.callTool('changes_engineer', 'operations_get', { operation_id: operationId }),
        expect: 'completed',
      },
      {
        label: 'workitems_search',
        run: () => gw.callTool('workitems_member', 'workitems_search', { project_id: 'WEB' }),
        expect: 'completed',
      },
      {
        label: 'workitems_search (text, viewer)',
        run: () => gw.callTool('workitems_viewer', 'workitems_search', { project_id: 'OPS', text: 'backup' }),
        expect: 'completed',
      },
      {
        label: 'workitems_get (tracker item)',
        run: () => gw.callTool('workitems_member', 'workitems_get', { id: 'WEB-1' }),
        expect: 'completed',
      },
      {
        label: 'workitems_create_draft',
        run: async () => {
          const created = await gw.callTool('workitems_member', 'workitems_create_draft', draft);
          draftId = (created.result as { draft?: { draft_id: string } } | null)?.draft?.draft_id ?? '';
          return created;
        },
        expect: 'completed',
      },
      {
        label: 'workitems_create_draft (replay)',
        run: () => gw.callTool('workitems_member', 'workitems_create_draft', draft),
        expect: 'completed',
        replayed: true,
      },
      {
        label: 'workitems_get (draft)',
        run: () => gw.callTool('workitems_member', 'workitems_get', { id: draftId }),
        expect: 'completed',
      },
      {
        label: 'workitems_commit',
        run: async () =>
          saveOperation(
            await callConfirmed('workitems_member', 'workitems_commit', {
              draft_id: draftId,
              idempotency_key: commitKey,
            }),
          ),
        expect: 'completed',
      },
      {
        label: 'workitems_commit (replay)',
        run: () =>
          gw.callTool('workitems_member', 'workitems_commit', {
            draft_id: draftId,
            idempotency_key: commitKey,
          }),
        expect: 'completed',
        replayed: true,
      },
      {
        label: 'workitems_commit (possible duplicate, relayed)',
        run: async () => {
          const again = await gw.callTool('workitems_member', 'workitems_create_draft', {
            ...draft,
            idempotency_key: key('draft-again'),
          });
          againId = (again.result as { draft?: { draft_id: string } } | null)?.draft?.draft_id ?? '';
          // A client that cannot ask its user gets the question, naming the duplicate, to relay.
          return gw.callTool('workitems_member', 'workitems_commit', {
            draft_id: againId,
            idempotency_key: key('commit-again'),
          });
        },
        expect: 'requires_confirmation',
        code: 'CONFIRMATION_REQUIRED',
      },
      {
        label: 'workitems_commit (confirmed new)',
        run: () =>
          callConfirmed('workitems_member', 'workitems_commit', {
            draft_id: againId,
            confirm_new_item: true,
            idempotency_key: key('commit-confirmed'),
          }),
        expect: 'completed',
      },
      {
        label: 'operations_get (commit)',
        run: () => gw.callTool('workitems_member', 'operations_get', { operation_id: operationId }),
        expect: 'completed',
      },
    ];
  }

  /** Runs one round; each call must take its common successful path, or the check proves nothing. */
  async function round(n: number, onCall: (label: string | null) => void): Promise<void> {
    await gw.testApi('POST', '/test-api/reset');
    for (const call of await roundCalls(n)) {
      onCall(call.label);
      const envelope = await call.run();
      onCall(null);
      expect(
        { call: call.label, status: envelope.status, code: envelope.code },
        `${call.label}: ${envelope.message}`,
      ).toEqual({ call: call.label, status: call.expect, code: call.code ?? null });
      if (call.replayed) expect(envelope.replayed, `${call.label} replayed`).toBe(true);
    }
  }

  it('no statement is re-prepared (no row constructor rebuilt) once warm', async () => {
    for (let n = 0; n < 3; n += 1) await round(n, () => undefined);

    const realFunction = globalThis.Function;
    const rebuilds: Rebuild[] = [];
    // Only the tool calls count: the test API's reset and fixtures are not on the hot path.
    let current: string | null = null;
    const record = (args: readonly unknown[]) => {
      if (current !== null) rebuilds.push({ label: current, source: String(args.at(-1)).slice(0, 200) });
    };
    globalThis.Function = new Proxy(realFunction, {
      apply(target, thisArg, args) {
        record(args);
        return Reflect.apply(target, thisArg, args);
      },
      construct(target, args, newTarget) {
        record(args);
        return Reflect.construct(target, args, newTarget);
      },
    });
    try {
      for (let n = 3; n < 8; n += 1)
        await round(n, (label) => {
          current = label;
        });
    } finally {
      globalThis.Function = realFunction;
    }
    // One line per call and rebuilt row shape, so a failure names the call and the statement's columns.
    expect([...new Set(rebuilds.map((r) => `${r.label}: ${r.source}`))]).toEqual([]);
  }, 60_000);
});
