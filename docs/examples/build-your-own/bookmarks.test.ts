import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookmarksModule } from './bookmarks-module.ts';

const ada = {
  sub: 'ada',
  tenant: 'acme',
  actor: 'customer' as const,
  scopes: ['bookmarks:read', 'bookmarks:write'],
};

describe('bookmarks', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ modules: [bookmarksModule] });
  });
  afterAll(() => gateway.close());

  test('a save executes once per key: the retry replays it and the table holds one row', async () => {
    const args = {
      url: 'https://wiki.example.com',
      title: 'Team wiki',
      idempotency_key: 'save-wiki-000000001',
    };
    const first = await gateway.callTool(ada, 'bookmarks_save', args);
    expect(first).toMatchObject({ status: 'completed', replayed: false });
    const retry = await gateway.callTool(ada, 'bookmarks_save', args);
    expect(retry).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });

    const rows = await gateway.app.db.query('SELECT title FROM bookmarks WHERE owner = ?', ['ada']);
    expect(rows).toEqual([{ title: 'Team wiki' }]);
    expect(await gateway.operation(first.operation_id!)).toMatchObject({ status: 'completed' });
  });

  test('bad input is refused field by field and changes nothing', async () => {
    const refused = await gateway.callTool(ada, 'bookmarks_save', {
      url: 'ftp://old.example.com',
      title: '',
      idempotency_key: 'save-bad-0000000001',
    });
    expect(refused).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT' });
    expect(refused.field_errors.map((e) => e.field).sort()).toEqual(['title', 'url']);
    expect(
      await gateway.app.db.query('SELECT id FROM bookmarks WHERE url = ?', ['ftp://old.example.com']),
    ).toEqual([]);
  });

  test('another tenant cannot read the bookmark', async () => {
    const saved = await gateway.callTool(ada, 'bookmarks_save', {
      url: 'https://example.com/private',
      title: 'Private',
      idempotency_key: 'save-private-000001',
    });
    const bookmarkId = (saved.result as { bookmark_id: string }).bookmark_id;
    const stranger = { ...ada, tenant: 'globex' };
    expect(await gateway.callTool(stranger, 'bookmarks_get', { bookmark_id: bookmarkId })).toMatchObject({
      status: 'rejected',
      code: 'BOOKMARK_NOT_FOUND',
    });
  });
});
