import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/client';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { rolloutBucket } from '../../src/contract/rollout.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { CONTRACT_META_KEY } from '../../src/contract/tool-registry.ts';
import { CONTRACT_VERSION_META_KEY } from '../../src/contract/tool-versions.ts';
import { GatewayTracing } from '../../src/telemetry/call-tracing.ts';

/** Every effect a version of notes_save applied, in order. */
interface Effect {
  readonly version: string;
  readonly note: string;
  readonly key: string;
}

const saved = z.strictObject({ note_id: z.string(), saved_by: z.string() });
const key = z.strictObject({ idempotency_key: idempotencyKeySchema }).shape.idempotency_key;

function notesTools(effects: Effect[]) {
  const common = {
    name: 'notes_save',
    title: 'Save a note',
    description: 'Saves the text of one note the caller owns. Do not use it to create notes; none exist yet.',
    kind: 'write' as const,
    mutation: 'update' as const,
    output: saved,
    errors: [],
    scopes: ['notes:write'],
    timeoutMs: 2000,
    examples: [],
    reconcile: async () => ({ settled: false as const, note: 'the notes keep no log' }),
  };
  const find = {
    name: 'notes_find',
    title: 'Find a note',
    description: 'Finds one note of the caller by its id. Do not use it to save; use notes_save instead.',
    kind: 'read' as const,
    input: z.strictObject({ note_id: z.string().max(20).describe('The note id.') }),
    output: z.strictObject({ note_id: z.string() }),
    errors: [],
    scopes: ['notes:write'],
    timeoutMs: 2000,
    examples: [],
    handler: async (input: { note_id: string }) => outcome.completed({ note_id: input.note_id }),
  };
  return [
    defineTool({
      ...common,
      version: '1.2.0',
      input: z.strictObject({
        note_id: z.string().max(20).describe('The note id.'),
        text: z.string().max(200).describe('The new text.'),
        idempotency_key: key,
      }),
      async handler(input, ctx) {
        effects.push({ version: '1.2.0', note: input.note_id, key: input.idempotency_key });
        return outcome.completed({ note_id: input.note_id, saved_by: ctx.principal.subject });
      },
    }),
    defineTool({
      ...common,
      version: '2.0.0',
      rollout: { groups: ['notes-beta'] },
      input: z.strictObject({
        note_id: z.string().max(20).describe('The note id.'),
        body: z.string().max(200).describe('The new body, in Markdown.'),
        idempotency_key: key,
      }),
      async handler(input, ctx) {
        effects.push({ version: '2.0.0', note: input.note_id, key: input.idempotency_key });
        return outcome.completed({ note_id: input.note_id, saved_by: ctx.principal.subject });
      },
    }),
    defineTool({ ...find, version: '1.0.0' }),
    defineTool({ ...find, version: '2.0.0', rollout: { percent: 50 } }),
  ];
}

const SCOPES = ['notes:write', 'operations:read'];
const member = (sub: string): TokenSubject => ({
  sub,
  tenant: 'notes',
  actor: 'customer',
  scopes: SCOPES,
  groups: ['notes-beta'],
});
const outsider = (sub: string): TokenSubject => ({ sub, tenant: 'notes', actor: 'customer', scopes: SCOPES });

const newKey = (label: string) => `versions-${label}-${randomUUID()}`;

/** Two majors of one tool served side by side, through the whole gateway over HTTP. */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`two versions of one tool (${target.dialect})`, () => {
    const effects: Effect[] = [];
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    let location: StoreLocation;
    let gw: StartedGateway;
    beforeAll(async () => {
      location = await target.create();
      gw = await startGateway({
        modules: [],
        tools: notesTools(effects),
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false, tracing: new GatewayTracing(provider.getTracer('tool-versions')) },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await provider.shutdown();
      await location?.dispose();
    });
    beforeEach(() => {
      effects.length = 0;
      exporter.reset();
    });

    /** The versions of `name` a principal's tools/list shows. */
    async function listedVersions(who: TokenSubject, name: string): Promise<(string | undefined)[]> {
      const tools = (await (await gw.client(who)).listTools()).tools;
      return tools
        .filter((tool) => tool.name === name)
        .map((tool) => (tool._meta?.[CONTRACT_META_KEY] as { version?: string } | undefined)?.version);
    }

    async function operationsWithKey(idempotencyKey: string): Promise<{ contract_version: string }[]> {
      return gw.app.db.query<{ contract_version: string }>(
        'SELECT contract_version FROM operations WHERE idem_key = ?',
        [idempotencyKey],
      );
    }

    test('each cohort lists exactly one version of the name and calls it', async () => {
      expect(await listedVersions(member('ada'), 'notes_save')).toEqual(['2.0.0']);
      expect(await listedVersions(outsider('bob'), 'notes_save')).toEqual(['1.2.0']);

      const v2Key = newKey('v2');
      const v2 = await gw.callTool(member('ada'), 'notes_save', {
        note_id: 'n1',
        body: '# hi',
        idempotency_key: v2Key,
      });
      expect(v2).toMatchObject({ ok: true, status: 'completed', contract_version: '2.0.0' });
      const v1Key = newKey('v1');
      const v1 = await gw.callTool(outsider('bob'), 'notes_save', {
        note_id: 'n2',
        text: 'hi',
        idempotency_key: v1Key,
      });
      expect(v1).toMatchObject({ ok: true, status: 'completed', contract_version: '1.2.0' });
      expect(effects).toEqual([
        { version: '2.0.0', note: 'n1', key: v2Key },
        { version: '1.2.0', note: 'n2', key: v1Key },
      ]);
      // An argument only the other version takes is that version's input, refused by this one.
      const crossed = await gw.callTool(outsider('bob'), 'notes_save', {
        note_id: 'n2',
        body: 'hi',
        idempotency_key: newKey('crossed'),
      });
      expect(crossed).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        contract_version: '1.2.0',
      });
      expect(effects).toHaveLength(2);
    });

    test('a call pinning the version the caller is not served is refused as an unknown tool, nothing run', async () => {
      const client = await gw.client(outsider('bob'));
      const unknown = await client
        .callTool({ name: 'notes_nope', arguments: {} })
        .catch((error: unknown) => error as ProtocolError);
      const pinnedKey = newKey('pinned');
      const pinned = await client
        .callTool({
          name: 'notes_save',
          arguments: { note_id: 'n3', body: 'x', idempotency_key: pinnedKey },
          _meta: { [CONTRACT_VERSION_META_KEY]: '2.0.0' },
        })
        .catch((error: unknown) => error as ProtocolError);
      expect(pinned).toBeInstanceOf(ProtocolError);
      expect((pinned as ProtocolError).code).toBe(-32602);
      expect((pinned as ProtocolError).message).toMatch(/No tool is named "notes_save"\. Closest tools/);
      expect((unknown as ProtocolError).message).toMatch(/No tool is named "notes_nope"\. Closest tools/);
      expect(effects).toEqual([]);
      expect(await operationsWithKey(pinnedKey)).toEqual([]);

      // A pin of the version the caller is served goes through as any call.
      const served = await client.callTool({
        name: 'notes_save',
        arguments: { note_id: 'n3', text: 'x', idempotency_key: pinnedKey },
        _meta: { [CONTRACT_VERSION_META_KEY]: '1' },
      });
      expect(served.structuredContent).toMatchObject({ status: 'completed', contract_version: '1.2.0' });
      expect(await operationsWithKey(pinnedKey)).toEqual([{ contract_version: '1.2.0' }]);
    });

    test('a percent rollout serves a subject the same version on every listing and call', async () => {
      const subjects = Array.from({ length: 6 }, (_, i) => outsider(`pct-${i}`));
      const expectedOf = (who: TokenSubject) =>
        rolloutBucket('notes', who.sub, 'notes_find') < 50 ? '2.0.0' : '1.0.0';
      // These subjects fall on both sides of the percent.
      expect(new Set(subjects.map(expectedOf))).toEqual(new Set(['1.0.0', '2.0.0']));
      for (const who of subjects) {
        const expected = expectedOf(who);
        expect(await listedVersions(who, 'notes_find')).toEqual([expected]);
        expect(await listedVersions(who, 'notes_find')).toEqual([expected]);
        for (let call = 0; call < 2; call += 1) {
          const found = await gw.callTool(who, 'notes_find', { note_id: 'n1' });
          expect(found.contract_version).toBe(expected);
        }
      }
    });

    test('a key reserved by one major replayed against the other is IDEMPOTENCY_CONFLICT, no second effect', async () => {
      const reused = newKey('reuse');
      const first = await gw.callTool(outsider('cyd'), 'notes_save', {
        note_id: 'n4',
        text: 'first',
        idempotency_key: reused,
      });
      expect(first).toMatchObject({ status: 'completed', contract_version: '1.2.0' });
      // The same subject joins the rollout group: its next token is served the new major.
      const again = await gw.callTool(member('cyd'), 'notes_save', {
        note_id: 'n4',
        body: 'first',
        idempotency_key: reused,
      });
      expect(again).toMatchObject({
        status: 'failed',
        code: 'IDEMPOTENCY_CONFLICT',
        contract_version: '2.0.0',
      });
      expect(effects).toEqual([{ version: '1.2.0', note: 'n4', key: reused }]);
      expect(await operationsWithKey(reused)).toEqual([{ contract_version: '1.2.0' }]);
      // Back in the old cohort, the key replays what it reserved.
      const replay = await gw.callTool(outsider('cyd'), 'notes_save', {
        note_id: 'n4',
        text: 'first',
        idempotency_key: reused,
      });
      expect(replay).toMatchObject({ status: 'completed', replayed: true, contract_version: '1.2.0' });
      expect(effects).toHaveLength(1);
    });

    test('the operation, operations_get, audit, span and metrics carry the version that served the call', async () => {
      const who = member('dee');
      const saved = await gw.callTool(who, 'notes_save', {
        note_id: 'n5',
        body: 'x',
        idempotency_key: newKey('telemetry'),
      });
      const operationId = saved.operation_id!;
      expect((await gw.operation(operationId))?.contractVersion).toBe('2.0.0');
      const view = await gw.callTool(who, 'operations_get', { operation_id: operationId });
      expect(view.result).toMatchObject({ tool: 'notes_save', contract_version: '2.0.0' });
      const audit = await gw.app.db.query<{ contract_version: string }>(
        'SELECT contract_version FROM audit_log WHERE operation_id = ? AND action = ?',
        [operationId, 'notes_save'],
      );
      expect(audit).toEqual([{ contract_version: '2.0.0' }]);
      const span = exporter.getFinishedSpans().find((s) => s.name === 'tools/call notes_save');
      expect(span?.attributes['toolgate.contract_version']).toBe('2.0.0');
      const metrics = await (await fetch(`${gw.origin}/metrics`)).text();
      expect(metrics).toMatch(
        /toolgate_tool_calls_total\{tool="notes_save",contract_version="2.0.0",status="completed"\} [1-9]/,
      );
      expect(metrics).toMatch(
        /toolgate_tool_calls_total\{tool="notes_save",contract_version="1.2.0",status="completed"\} [1-9]/,
      );
    });
  });
}
