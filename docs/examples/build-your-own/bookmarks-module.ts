import { createHash } from 'node:crypto';
import {
  defineErrorCodes,
  defineModule,
  defineTool,
  idempotencyKeySchema,
  type OperationSnapshot,
  outcome,
  type SqlDatabase,
  textSchema,
} from 'toolgate';
import { z } from 'zod';

const errors = defineErrorCodes({
  BOOKMARK_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No bookmark with this id is visible to the caller; save one instead of guessing ids.',
  },
  BOOKMARK_NOT_SAVED: {
    category: 'state',
    retryable: false,
    description: 'The bookmark was not saved; ask the user whether to save it again with a new key.',
  },
});

const bookmarkId = z
  .string()
  .regex(/^bm_[0-9a-f]{12}$/)
  .describe('Bookmark id: bm_ and 12 lowercase hex characters, as bookmarks_save answered it.');

const bookmark = z
  .strictObject({
    bookmark_id: z.string().describe('Pass it to bookmarks_get to read the bookmark again.'),
    url: z.string().describe('The saved address.'),
    title: z.string().describe('The title the user gave; report it as saved.'),
  })
  .describe('One saved bookmark.');

type BookmarkRow = { id: string; url: string; title: string };
const view = (row: BookmarkRow) => ({ bookmark_id: row.id, url: row.url, title: row.title });

/** The bookmark an operation saved, if it did: the operation id is unique in the table. */
async function savedBy(db: SqlDatabase, operation: OperationSnapshot): Promise<BookmarkRow | undefined> {
  const rows = await db.query<BookmarkRow>(
    'SELECT id, url, title FROM bookmarks WHERE tenant = ? AND operation_id = ?',
    [operation.tenant, operation.id],
  );
  return rows[0];
}

/**
 * Bookmarks kept in the gateway's own database (SQLite or PostgreSQL): a read, and a write that the
 * operation id makes exactly-once even if the handler runs again.
 */
export const bookmarksModule = defineModule({
  name: 'bookmarks',
  migrations: [
    {
      id: '1000_bookmarks',
      sql: `CREATE TABLE bookmarks (id TEXT PRIMARY KEY, tenant TEXT NOT NULL, owner TEXT NOT NULL,
        url TEXT NOT NULL, title TEXT NOT NULL, operation_id TEXT NOT NULL UNIQUE)`,
    },
  ],
  create({ db }) {
    const bookmarksGet = defineTool({
      name: 'bookmarks_get',
      title: 'Read a bookmark',
      description:
        "Returns one of the caller's bookmarks by id. Do not use it to save a bookmark (use bookmarks_save). " +
        'An unknown or foreign id answers BOOKMARK_NOT_FOUND.',
      kind: 'read',
      version: '1.0.0',
      input: z.strictObject({ bookmark_id: bookmarkId }),
      output: bookmark,
      errors: [errors.BOOKMARK_NOT_FOUND],
      scopes: ['bookmarks:read'],
      timeoutMs: 2_000,
      examples: [{ title: 'Read a bookmark', input: { bookmark_id: 'bm_0123456789ab' } }],
      async handler(input, ctx) {
        const [row] = await db.query<BookmarkRow>(
          'SELECT id, url, title FROM bookmarks WHERE id = ? AND tenant = ? AND owner = ?',
          [input.bookmark_id, ctx.principal.tenant, ctx.principal.subject],
        );
        if (!row) return outcome.rejected('BOOKMARK_NOT_FOUND', 'No such bookmark is visible to you.');
        return outcome.completed(view(row));
      },
    });

    const bookmarksSave = defineTool({
      name: 'bookmarks_save',
      title: 'Save a bookmark',
      description:
        'Saves one web address with a title for the caller and answers the new bookmark. Do not use it to ' +
        'read bookmarks (use bookmarks_get). After a lost answer retry with the same idempotency_key.',
      kind: 'write',
      mutation: 'create',
      version: '1.0.0',
      input: z.strictObject({
        url: z
          .url({ protocol: /^https?$/ })
          .max(500)
          .describe('The http(s) address to keep, at most 500 characters.'),
        title: textSchema({ min: 1, max: 120 }).describe('A title for the bookmark, 1-120 characters.'),
        idempotency_key: idempotencyKeySchema,
      }),
      output: bookmark,
      errors: [errors.BOOKMARK_NOT_SAVED],
      scopes: ['bookmarks:write'],
      timeoutMs: 2_000,
      examples: [
        {
          title: 'Save the team wiki',
          input: {
            url: 'https://wiki.example.com',
            title: 'Team wiki',
            idempotency_key: 'save-wiki-000000001',
          },
        },
      ],
      async handler(input, ctx) {
        const operationId = ctx.operation!.id;
        const id = `bm_${createHash('sha256').update(operationId).digest('hex').slice(0, 12)}`;
        // The unique operation id makes a second execution of the same operation a no-op.
        await db.execute(
          `INSERT INTO bookmarks (id, tenant, owner, url, title, operation_id) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (operation_id) DO NOTHING`,
          [id, ctx.principal.tenant, ctx.principal.subject, input.url, input.title, operationId],
        );
        return outcome.completed({ bookmark_id: id, url: input.url, title: input.title });
      },
      async reconcile(operation) {
        const row = await savedBy(db, operation);
        if (row) return { settled: true, outcome: outcome.completed(view(row)) };
        return {
          settled: true,
          outcome: outcome.rejected('BOOKMARK_NOT_SAVED', 'The bookmark was not saved.'),
        };
      },
    });

    return { tools: [bookmarksGet, bookmarksSave] };
  },
});
