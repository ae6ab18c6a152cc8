import { defineTool, outcome } from 'toolgate';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modernRequest } from '../tasks/extension-client.ts';

const reader = { sub: 'ben', tenant: 'acme', actor: 'support_agent' as const, scopes: ['other:read'] };

/** The client name a 2026-07-28 request carries in `_meta` reaches the call's audit entry over the wire. */
describe('the MCP client name as the application', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    const thingsGet = defineTool({
      name: 'things_get',
      title: 'Read a thing',
      description: 'Returns one thing the caller may see. Do not use it to search for things.',
      kind: 'read',
      version: '1.0.0',
      input: z.strictObject({ thing_id: z.string().max(20) }),
      output: z.strictObject({ thing_id: z.string() }),
      errors: [],
      scopes: ['things:read'],
      timeoutMs: 1000,
      examples: [],
      handler: async (input) => outcome.completed({ thing_id: input.thing_id }),
    });
    gateway = await startTestGateway({ tools: [thingsGet] });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('records it when the token names no application', async () => {
    const token = await gateway.tokenFor(reader);
    const answer = await modernRequest(
      gateway.url,
      token,
      'tools/call',
      { name: 'things_get', arguments: { thing_id: 't1' } },
      { capabilities: {} },
    );
    expect(answer.status).toBe(200);
    const rows = await gateway.app.db.query<{ code: string; detail: string }>(
      'SELECT code, detail FROM audit_log WHERE subject = ? AND action = ?',
      [reader.sub, 'things_get'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code).toBe('FORBIDDEN');
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ application: 'task-extension-test' });
  });
});
