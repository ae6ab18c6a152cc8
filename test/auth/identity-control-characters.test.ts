import { randomUUID } from 'node:crypto';
import { defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { postToolCall } from '../support/post-tool-call.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';

const writer: TokenSubject = {
  sub: 'note-writer',
  tenant: 'acme',
  actor: 'customer',
  scopes: ['notes:write'],
};

/** NUL, ESC (C0), DEL and NEL (C1). */
const CONTROLS = ['\u0000', '\u001b', '\u007f', '\u0085'];

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`control characters in identity claims on ${target.dialect}`, () => {
    let location: StoreLocation;
    let gw: TestGateway;
    let executions = 0;
    const notesWrite = defineTool({
      name: 'notes_write',
      title: 'Write a note',
      description: 'Stores a note for the caller. Test-only tool.',
      kind: 'write',
      mutation: 'create',
      version: '1.0.0',
      input: z.strictObject({
        text: z.string().min(1).max(40).describe('Note text.'),
        idempotency_key: idempotencyKeySchema,
      }),
      output: z.strictObject({ stored: z.boolean() }),
      errors: [],
      scopes: ['notes:write'],
      timeoutMs: 2_000,
      examples: [],
      handler: async () => {
        executions += 1;
        return outcome.completed({ stored: true });
      },
      reconcile: async () => ({ settled: false, note: 'notes settle when written' }),
    });
    const write = async (subject: TokenSubject) =>
      postToolCall(gw.url, await gw.tokenFor(subject), 'notes_write', {
        text: 'hello',
        idempotency_key: `note-${randomUUID()}`,
      });
    const rows = async () => ({
      operations: await gw.app.db.query<{ subject: string; tenant: string }>(
        'SELECT subject, tenant FROM operations',
      ),
      audit: await gw.app.db.query<{ subject: string; tenant: string }>(
        'SELECT subject, tenant FROM audit_log',
      ),
    });

    beforeAll(async () => {
      location = await target.create();
      gw = await startTestGateway({
        tools: [notesWrite],
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });
    beforeEach(async () => {
      await gw.app.db.execute('DELETE FROM audit_log');
      await gw.app.db.execute('DELETE FROM operations');
      executions = 0;
    });

    test.each(
      CONTROLS.flatMap((c) => [
        [
          `sub with U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
          { ...writer, sub: `note${c}writer` },
        ],
        [
          `tenant with U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
          { ...writer, tenant: `ac${c}me` },
        ],
      ]) as [string, TokenSubject][],
    )('%s: 401 invalid_token, nothing executed, no operation, no audit entry', async (_name, subject) => {
      const response = await write(subject);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(await response.json()).toMatchObject({
        error: 'invalid_token',
        error_description: expect.stringContaining('must not contain control characters'),
      });
      expect(executions).toBe(0);
      expect(await rows()).toEqual({ operations: [], audit: [] });
    });

    test('a normal token still writes: executed once, its operation and audit entry stored', async () => {
      const response = await write(writer);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result: { structuredContent: { status: string } } };
      expect(body.result.structuredContent.status).toBe('completed');
      expect(executions).toBe(1);
      const stored = await rows();
      expect(stored.operations).toEqual([{ subject: 'note-writer', tenant: 'acme' }]);
      expect(stored.audit).toContainEqual({ subject: 'note-writer', tenant: 'acme' });
    });
  });
}
