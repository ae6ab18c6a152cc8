import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TokenSubject } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { relayedDigest } from '../support/person-confirms.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { createTask, envelopeOf, runAsTask, v1Client } from './task-client.ts';

const ALICE = 'acme-customer-alice';
const SAM = 'acme-support-sam';
const MEMBER = 'workitems_member';
const CHANGE = 'orders_change_unshipped_address';
const NEW_ADDRESS = ADDRESS_SAMPLES.clean_us!;
const REVIEWER: TokenSubject = {
  sub: 'olivia',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read', 'operations:review'],
};

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

let keySeq = 0;
const newKey = (label: string) => {
  keySeq += 1;
  return `task-${label}-${Date.now().toString(36)}-${keySeq}`;
};

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `durable operations as MCP tasks over HTTP, on ${target.dialect}`,
    () => {
      let gw: StartedGateway;
      let location: StoreLocation;
      let fixtures: Fixtures;
      beforeAll(async () => {
        location = await target.create();
        gw = await startGateway({
          databaseUrl: location.config.databaseUrl,
          testApi: true,
          app: { operations: { reconcileIntervalMs: 50 } },
        });
      });
      afterAll(async () => {
        await gw?.close();
        await location?.dispose();
      });
      beforeEach(async () => {
        expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
        fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
      });

      const order = (label: string) => fixtures.orders.all.find((o) => o.label === label)!;
      const effects = async (target: string, ref: string) =>
        (
          (await gw.testApi('GET', `/test-api/effects?target=${target}&ref=${ref}`)).body as {
            effects: unknown[];
          }
        ).effects;
      const changeArgs = (label: string, key = newKey('change')) => ({
        order_id: order(label).order_id,
        expected_order_version: order(label).version,
        new_address: NEW_ADDRESS,
        idempotency_key: key,
      });

      it('announces tasks and declares taskSupport per kind in tools/list', async () => {
        const client = await v1Client(gw, SAM);
        expect(client.getServerCapabilities()?.tasks).toEqual({
          list: {},
          cancel: {},
          requests: { tools: { call: {} } },
        });
        const { tools } = await client.listTools();
        const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
        expect(support).toMatchObject({
          shipments_request_redirect: 'optional',
          orders_get: 'forbidden',
          operations_get: 'forbidden',
        });
      });

      it('a lost warehouse answer is polled from working to completed, with one ledger effect', async () => {
        const armed = await gw.testApi('POST', '/test-api/faults', {
          target: 'warehouse',
          fault: 'drop_response_after_apply',
          match: { action: 'apply_address_update' },
        });
        expect(armed.status).toBe(201);
        const run = await runAsTask(await v1Client(gw, ALICE), CHANGE, changeArgs('alice-editable'));
        expect(run.error).toBeNull();
        expect(run.created).toMatchObject({ status: 'working', ttl: 86_400_000, pollInterval: 50 });
        expect(run.created.taskId).toMatch(/^op_/);
        const messages = run.statuses.map((t) => t.statusMessage ?? '');
        expect(messages.some((m) => m.startsWith('Outcome unknown'))).toBe(true);
        expect(run.statuses.at(-1)?.status).toBe('completed');
        const envelope = envelopeOf(run.result);
        expect(envelope).toMatchObject({ status: 'completed', operation_id: run.created.taskId });
        expect(run.result?._meta).toEqual({
          'io.modelcontextprotocol/related-task': { taskId: run.created.taskId },
        });
        expect(await gw.operation(run.created.taskId)).toMatchObject({ status: 'completed' });
        expect(await effects('warehouse', order('alice-editable').order_id)).toHaveLength(1);
      });

      it('a replay under the same key answers the same task, and its result replays', async () => {
        const client = await v1Client(gw, ALICE);
        const args = changeArgs('alice-editable');
        const first = await runAsTask(client, CHANGE, args);
        expect(envelopeOf(first.result)).toMatchObject({ status: 'completed' });
        const again = await runAsTask(client, CHANGE, args);
        expect(again.created.taskId).toBe(first.created.taskId);
        expect(again.created.status).toBe('completed');
        expect(envelopeOf(again.result)).toMatchObject({
          status: 'completed',
          operation_id: first.created.taskId,
        });
        // A different request under the key has no task: refused as before, nothing executed.
        const conflict = createTask(client, CHANGE, { ...args, new_address: ADDRESS_SAMPLES.suggested_us });
        await expect(conflict).rejects.toThrow(/IDEMPOTENCY_CONFLICT/);
        expect(await effects('warehouse', order('alice-editable').order_id)).toHaveLength(1);
      });

      it('a redirect completes its task as submitted; the carrier decides later, seen by the status tool', async () => {
        const client = await v1Client(gw, SAM);
        const run = await runAsTask(client, 'shipments_request_redirect', {
          order_id: order('alice-in-transit').order_id,
          new_address: NEW_ADDRESS,
          idempotency_key: newKey('redirect'),
        });
        const submitted = envelopeOf(run.result);
        expect(submitted).toMatchObject({ status: 'submitted', ok: true });
        expect(run.statuses.at(-1)?.status).toBe('completed');
        const decided = await gw.testApi('POST', '/test-api/simulate', {
          target: 'carrier',
          action: 'decide_redirect',
          params: { request_id: submitted.operation_id, decision: 'accepted' },
        });
        expect(decided.status).toBe(200);
        const status = await gw.callTool(SAM, 'shipments_get_redirect', {
          order_id: order('alice-in-transit').order_id,
          request_id: submitted.operation_id,
        });
        expect(status.result).toMatchObject({ redirects: [{ status: 'accepted' }] });
        // The task itself stays what it was: the request was submitted.
        const task = await client.experimental.tasks.getTask(run.created.taskId);
        expect(task.status).toBe('completed');
      });

      it('a commit whose answer was lost waits in review as working, then completes with the decision', async () => {
        const armed = await gw.testApi('POST', '/test-api/faults', {
          target: 'tracker',
          fault: 'drop_response_after_apply',
          match: { action: 'create_item', project: 'OPS' },
        });
        expect(armed.status).toBe(201);
        const client = await v1Client(gw, MEMBER);
        const draft = await gw.callTool(MEMBER, 'workitems_create_draft', {
          project_id: 'OPS',
          title: 'Disk alarms on db-3 are flapping',
          idempotency_key: newKey('draft'),
        });
        const draftId = (draft.result as { draft: { draft_id: string } }).draft.draft_id;
        // Every commit is confirmed; this client cannot ask its user, so the agent relays the question.
        const commit = { draft_id: draftId, idempotency_key: newKey('commit') };
        const relayed = await gw.callTool(MEMBER, 'workitems_commit', commit);
        expect(relayed).toMatchObject({ status: 'requires_confirmation', code: 'CONFIRMATION_REQUIRED' });
        const created = await createTask(client, 'workitems_commit', {
          ...commit,
          confirmation: relayedDigest(relayed),
        });
        let task = await client.experimental.tasks.getTask(created.taskId);
        for (let i = 0; i < 100 && !task.statusMessage?.startsWith('Awaiting human review'); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          task = await client.experimental.tasks.getTask(created.taskId);
        }
        expect(task).toMatchObject({ status: 'working' });
        expect(task.statusMessage).toContain('Awaiting human review');
        expect(await gw.operation(created.taskId)).toMatchObject({ status: 'needs_review' });
        const token = await gw.tokenFor(REVIEWER);
        const resolved = await fetch(`${gw.origin}/operator/v1/operations/${created.taskId}/resolve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            outcome: 'completed',
            reference: 'OPS-3',
            note: 'found OPS-3 in the tracker',
          }),
        });
        expect(resolved.status).toBe(200);
        expect(await client.experimental.tasks.getTask(created.taskId)).toMatchObject({
          status: 'completed',
        });
        const result = await client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
        expect(result.structuredContent).toMatchObject({ status: 'completed', operation_id: created.taskId });
      });

      it("another principal's task id answers like an unknown one; tasks/list shows only one's own", async () => {
        const alice = await v1Client(gw, ALICE);
        const run = await runAsTask(alice, CHANGE, changeArgs('alice-editable'));
        const sam = await v1Client(gw, SAM);
        const foreign = await sam.experimental.tasks.getTask(run.created.taskId).catch((e: unknown) => e);
        const unknown = await sam.experimental.tasks
          .getTask('op_01JD3Q5W7X9Y2Z4A6B8C0D1E2F')
          .catch((e: unknown) => e);
        expect(foreign).toBeInstanceOf(McpError);
        expect((foreign as McpError).code).toBe(-32602);
        expect((foreign as McpError).message.replace(run.created.taskId, 'ID')).toBe(
          (unknown as McpError).message.replace('op_01JD3Q5W7X9Y2Z4A6B8C0D1E2F', 'ID'),
        );
        await expect(
          sam.experimental.tasks.getTaskResult(run.created.taskId, CallToolResultSchema),
        ).rejects.toThrow(/Task not found/);
        await expect(sam.experimental.tasks.cancelTask(run.created.taskId)).rejects.toThrow(/Task not found/);
        expect((await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(
          run.created.taskId,
        );
        expect((await sam.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(
          run.created.taskId,
        );
      });

      it('tasks/cancel on a settled task is refused and changes nothing', async () => {
        const client = await v1Client(gw, ALICE);
        const run = await runAsTask(client, CHANGE, changeArgs('alice-editable'));
        await expect(client.experimental.tasks.cancelTask(run.created.taskId)).rejects.toThrow(
          /Cannot cancel: task op_\w+ is already completed/,
        );
        expect(await gw.operation(run.created.taskId)).toMatchObject({ status: 'completed' });
        expect(await client.experimental.tasks.getTask(run.created.taskId)).toMatchObject({
          status: 'completed',
        });
      });

      it('a read called as a task is refused with -32601; refusals before execution have no task', async () => {
        const client = await v1Client(gw, ALICE);
        const read = createTask(client, 'orders_get', { order_id: order('alice-editable').order_id });
        await expect(read).rejects.toMatchObject({ code: -32601 });
        const invalid = createTask(client, CHANGE, {
          ...changeArgs('alice-editable'),
          new_address: 'nowhere',
        });
        await expect(invalid).rejects.toThrow(/INVALID_ARGUMENT/);
        const forbidden = createTask(client, 'shipments_request_redirect', {
          order_id: order('alice-in-transit').order_id,
          new_address: NEW_ADDRESS,
          idempotency_key: newKey('forbidden'),
        });
        await expect(forbidden).rejects.toThrow(/FORBIDDEN/);
        expect((await client.experimental.tasks.listTasks()).tasks).toEqual([]);
      });

      it('a plain tools/call is unchanged', async () => {
        const plain = await gw.callTool(ALICE, CHANGE, changeArgs('alice-editable'));
        expect(plain).toMatchObject({ status: 'completed', replayed: false });
      });
    },
  );
}
