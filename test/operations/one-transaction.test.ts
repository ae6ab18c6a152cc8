import type { SqlExecutor, ToolgateModule } from 'toolgate';
import { defineErrorCodes, defineTool, idempotencyKeySchema, outcome, textSchema } from 'toolgate';
import type { App } from 'toolgate/server';
import { ShiftableClock } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storeTargets } from '../support/store-targets.ts';
import { testPrincipal } from '../support/test-domain.ts';
import { type AppOnStore, appOnStore, FAST_TUNING, newKey } from './harness.ts';

const errors = defineErrorCodes({
  NOTE_NOT_WRITTEN: { category: 'state', retryable: false, description: 'The note was not written.' },
});

/**
 * Notes kept in the gateway's own database. notes_commit writes through OperationHandle.commit (the
 * note and the operation's settlement in one transaction); notes_separate writes the note, then lets
 * the gateway settle in a second transaction, as handlers did before.
 */
const notesModule: ToolgateModule = {
  name: 'notes',
  migrations: [
    { id: '9100_tx_notes', sql: 'CREATE TABLE tx_notes (operation_id TEXT PRIMARY KEY, text TEXT NOT NULL)' },
  ],
  create({ db }) {
    const write = (via: SqlExecutor, operationId: string, text: string) =>
      via.execute('INSERT INTO tx_notes (operation_id, text) VALUES (?, ?)', [operationId, text]);
    const tool = (name: string, together: boolean) =>
      defineTool({
        name,
        title: 'Write a note',
        description:
          'Writes one note in the gateway database; the tests crash it between the write and the settlement.',
        kind: 'write',
        mutation: 'create',
        version: '1.0.0',
        input: z.strictObject({
          text: textSchema({ min: 1, max: 50 }).describe('The note.'),
          crash: z.boolean().default(false).describe('Fail right after the note is written.'),
          idempotency_key: idempotencyKeySchema,
        }),
        output: z.strictObject({ text: z.string().describe('The note as written.') }),
        errors: [errors.NOTE_NOT_WRITTEN],
        scopes: ['notes:write'],
        timeoutMs: 2_000,
        examples: [],
        async handler(input, ctx) {
          const operation = ctx.operation!;
          const work = async (via: SqlExecutor) => {
            await write(via, operation.id, input.text);
            // The fault point: the note is written, the operation not settled yet.
            if (input.crash) throw new Error('the process died between the write and the settlement');
            return outcome.completed({ text: input.text });
          };
          return together ? operation.commit(work) : work(db);
        },
        async reconcile(operation) {
          const [row] = await db.query<{ text: string }>('SELECT text FROM tx_notes WHERE operation_id = ?', [
            operation.id,
          ]);
          return {
            settled: true,
            outcome: row
              ? outcome.completed({ text: row.text })
              : outcome.rejected('NOTE_NOT_WRITTEN', 'No note.'),
          };
        },
      });
    return { tools: [tool('notes_commit', true), tool('notes_separate', false)] };
  },
};

const writer = testPrincipal('writer', { scopes: ['notes:write', 'operations:read'] });

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`one decision, one transaction on ${target.dialect}`, () => {
    let suite: AppOnStore | undefined;
    let app: App;
    const clock = new ShiftableClock();
    beforeAll(async () => {
      suite = await appOnStore(target, { modules: [notesModule], clock, operations: FAST_TUNING });
      app = suite.app;
    });
    afterAll(() => suite?.dispose());

    const call = (tool: string, args: Record<string, unknown>) =>
      app.gateway.call({ name: tool, arguments: args }, writer).then((answer) => answer.envelope);
    const notes = (operationId: string) =>
      app.db.query('SELECT text FROM tx_notes WHERE operation_id = ?', [operationId]);

    it('commits the note and the settled operation together, and answers what it stored', async () => {
      const answer = await call('notes_commit', { text: 'together', idempotency_key: newKey('tx') });
      expect(answer).toMatchObject({ status: 'completed', result: { text: 'together' } });
      const record = await app.operations.store.findById(answer.operation_id!);
      expect(record).toMatchObject({ status: 'completed', envelope: answer });
      expect(await notes(answer.operation_id!)).toEqual([{ text: 'together' }]);
    });

    it('a crash between the write and the settlement leaves neither: no note, and the operation is not completed', async () => {
      const answer = await call('notes_commit', {
        text: 'lost',
        crash: true,
        idempotency_key: newKey('txc'),
      });
      expect(answer).toMatchObject({ status: 'outcome_unknown' });
      expect(await notes(answer.operation_id!)).toEqual([]);
      clock.shift(60_000);
      await app.operations.reconciler.runOnce();
      expect(await app.operations.store.findById(answer.operation_id!)).toMatchObject({
        status: 'rejected',
        envelope: { code: 'NOTE_NOT_WRITTEN' },
      });
    });

    it('the same crash with the write and the settlement apart leaves a note the operation does not know of', async () => {
      const answer = await call('notes_separate', {
        text: 'split',
        crash: true,
        idempotency_key: newKey('txs'),
      });
      expect(answer).toMatchObject({ status: 'outcome_unknown' });
      expect(await notes(answer.operation_id!)).toEqual([{ text: 'split' }]);
      expect(await app.operations.store.findById(answer.operation_id!)).toMatchObject({
        status: 'outcome_unknown',
      });
    });

    it('a settlement that fails after the write rolls the write back', async () => {
      await app.db.execute('ALTER TABLE audit_log RENAME TO audit_log_away');
      try {
        const answer = await call('notes_commit', { text: 'unsettled', idempotency_key: newKey('txa') });
        expect(answer).toMatchObject({ status: 'outcome_unknown' });
        expect(await notes(answer.operation_id!)).toEqual([]);
        expect((await app.operations.store.findById(answer.operation_id!))?.status).not.toBe('completed');
      } finally {
        await app.db.execute('ALTER TABLE audit_log_away RENAME TO audit_log');
      }
    });
  });
}
