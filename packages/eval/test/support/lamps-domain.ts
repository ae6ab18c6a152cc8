import {
  ExternalOutcomeUnknownError,
  ExternalUnavailableError,
  simulationMigrations,
  throughFaults,
  withSimulation,
  withSimulationHooks,
} from '@toolgate/simulation';
import { defineErrorCodes, defineTool, type ModuleContext, outcome, type ToolgateModule } from 'toolgate';
import { z } from 'zod';

/**
 * A tiny domain for testing the evaluation harness itself: lamps a customer can switch through a
 * simulated power grid (an external system with faults and an effects ledger). Switching needs the
 * version last read; the grid can lock a lamp mid-conversation.
 */
const errors = defineErrorCodes({
  LAMP_NOT_FOUND: { category: 'not_found', retryable: false, description: 'No such lamp for this caller.' },
  LAMP_STATE_CHANGED: { category: 'state', retryable: false, description: 'Read the lamp again.' },
  LAMP_LOCKED: { category: 'state', retryable: false, description: 'The grid locked the lamp.' },
});

const lampId = z
  .string()
  .regex(/^lamp_[a-z0-9]{1,20}$/)
  .describe('Lamp id, lamp_ + letters or digits.');
const lampView = z.strictObject({
  lamp_id: z.string(),
  on: z.boolean(),
  version: z.number().int(),
  locked: z.boolean(),
});

interface LampRow {
  [column: string]: unknown;
  id: string;
  owner: string;
  is_on: number;
  version: number;
  locked: number;
}

const SEED = [
  { id: 'lamp_kitchen', owner: 'ann', is_on: 0 },
  { id: 'lamp_porch', owner: 'ann', is_on: 1 },
  { id: 'lamp_garage', owner: 'bob', is_on: 0 },
];

function createLamps(context: ModuleContext) {
  const { db, faults, ledger } = withSimulation(context);
  const load = async (id: string, owner: string) =>
    (await db.query<LampRow>('SELECT * FROM eval_lamps WHERE id = ? AND owner = ?', [id, owner]))[0];
  const view = (row: LampRow) => ({
    lamp_id: row.id,
    on: row.is_on === 1,
    version: row.version,
    locked: row.locked === 1,
  });

  const lampsGet = defineTool({
    name: 'lamps_get',
    title: 'Read a lamp',
    description:
      'Reads one lamp the caller owns: whether it is on, its version and whether the grid locked it.',
    kind: 'read',
    version: '1.0.0',
    input: z.strictObject({ lamp_id: lampId }),
    output: lampView,
    errors: [errors.LAMP_NOT_FOUND],
    scopes: ['lamps:read'],
    timeoutMs: 2000,
    examples: [],
    async handler(input, ctx) {
      const row = await load(input.lamp_id, ctx.principal.subject);
      if (!row) return outcome.rejected('LAMP_NOT_FOUND', 'No such lamp.');
      return outcome.completed(view(row));
    },
  });

  const lampsSwitch = defineTool({
    name: 'lamps_switch',
    title: 'Switch a lamp',
    description:
      'Switches a lamp on or off through the grid. Needs the version last read and an idempotency key.',
    kind: 'write',
    mutation: 'update',
    externalSystems: ['grid'],
    version: '1.0.0',
    input: z.strictObject({
      lamp_id: lampId,
      on: z.boolean(),
      expected_version: z.number().int().min(1),
      idempotency_key: z.string().min(16).max(128),
    }),
    output: lampView,
    errors: [errors.LAMP_NOT_FOUND, errors.LAMP_STATE_CHANGED, errors.LAMP_LOCKED],
    scopes: ['lamps:write'],
    timeoutMs: 2000,
    examples: [],
    async handler(input, ctx) {
      const row = await load(input.lamp_id, ctx.principal.subject);
      if (!row) return outcome.rejected('LAMP_NOT_FOUND', 'No such lamp.');
      if (row.version !== input.expected_version)
        return outcome.rejected('LAMP_STATE_CHANGED', 'Read it again.');
      if (row.locked === 1) return outcome.rejected('LAMP_LOCKED', 'The grid locked this lamp.');
      const operationId = ctx.operation?.id ?? 'none';
      try {
        await throughFaults(
          faults,
          'grid',
          { action: 'switch', attributes: { lamp_id: row.id } },
          ctx.signal,
          () => applySwitch(row.id, input.on, operationId, ctx.principal.tenant),
        );
      } catch (error) {
        if (error instanceof ExternalUnavailableError)
          return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The grid did not answer; nothing changed.');
        if (error instanceof ExternalOutcomeUnknownError)
          return outcome.unknown('OUTCOME_UNKNOWN', 'The grid may have switched the lamp.');
        throw error;
      }
      return outcome.completed(view((await load(row.id, ctx.principal.subject))!));
    },
    async reconcile(operation) {
      const applied = await ledger.list({ system: 'grid', requestId: operation.id });
      if (applied.length === 0) return { settled: false, note: 'the grid has no record yet' };
      const row = (await db.query<LampRow>('SELECT * FROM eval_lamps WHERE id = ?', [applied[0]!.ref]))[0]!;
      return { settled: true, outcome: outcome.completed(view(row)) };
    },
  });

  const lampsRemove = defineTool({
    name: 'lamps_remove',
    title: 'Remove a lamp',
    description:
      'Takes a lamp off the grid for good. The user is asked to confirm it, and to say what happens to the bulb.',
    kind: 'write',
    mutation: 'delete',
    externalSystems: ['grid'],
    version: '1.0.0',
    input: z.strictObject({ lamp_id: lampId, idempotency_key: z.string().min(16).max(128) }),
    output: z.strictObject({ lamp_id: z.string(), removed: z.literal(true), bulb: z.string() }),
    errors: [errors.LAMP_NOT_FOUND],
    scopes: ['lamps:write'],
    timeoutMs: 2000,
    examples: [],
    confirm: {
      when: 'always: removing a lamp cannot be undone',
      async ask(input, ctx) {
        const row = await load(input.lamp_id, ctx.principal.subject);
        if (!row) return null;
        return {
          message: `Remove ${row.id} (now ${row.is_on === 1 ? 'on' : 'off'}) from the grid for good?`,
          choice: {
            title: 'The bulb',
            options: [
              { value: 'recycle', title: 'Recycle the bulb' },
              { value: 'keep', title: 'Keep the bulb' },
            ],
          },
        };
      },
    },
    async handler(input, ctx) {
      const row = await load(input.lamp_id, ctx.principal.subject);
      if (!row) return outcome.rejected('LAMP_NOT_FOUND', 'No such lamp.');
      const bulb = ctx.confirmation?.choice ?? 'keep';
      const operationId = ctx.operation?.id ?? 'none';
      await db.transaction(async (tx) => {
        await tx.execute('DELETE FROM eval_lamps WHERE id = ?', [row.id]);
        await ledger.record(
          {
            system: 'grid',
            action: 'remove',
            ref: row.id,
            tenant: ctx.principal.tenant,
            requestId: operationId,
            data: { bulb },
          },
          tx,
        );
      });
      return outcome.completed({ lamp_id: row.id, removed: true as const, bulb });
    },
    async reconcile(operation) {
      const removed = await ledger.list({ system: 'grid', action: 'remove', requestId: operation.id });
      if (removed.length === 0) return { settled: false, note: 'the grid has no record of the removal' };
      const { ref, data } = removed[0]!;
      return {
        settled: true,
        outcome: outcome.completed({ lamp_id: ref, removed: true as const, bulb: String(data.bulb) }),
      };
    },
  });

  /** The grid applies a switch once per operation id and records it. */
  const applySwitch = (id: string, on: boolean, operationId: string, tenant: string) =>
    db.transaction(async (tx) => {
      const done = await tx.query('SELECT 1 FROM effects WHERE system = ? AND request_id = ?', [
        'grid',
        operationId,
      ]);
      if (done.length > 0) return;
      await tx.execute('UPDATE eval_lamps SET is_on = ?, version = version + 1 WHERE id = ?', [
        on ? 1 : 0,
        id,
      ]);
      await ledger.record(
        { system: 'grid', action: 'switch', ref: id, tenant, requestId: operationId, data: { on } },
        tx,
      );
    });

  return withSimulationHooks(
    {
      tools: [lampsGet, lampsSwitch, lampsRemove],
    },
    {
      principals: [
        {
          name: 'ann',
          subject: 'ann',
          tenant: 'home',
          actor: 'customer' as const,
          scopes: ['lamps:read', 'lamps:write', 'operations:read'],
          description: 'owns two lamps',
        },
        {
          name: 'viewer',
          subject: 'ann',
          tenant: 'home',
          actor: 'customer' as const,
          scopes: ['lamps:read'],
          description: 'reads only',
        },
      ],
      async seed() {
        for (const lamp of SEED) {
          await db.execute(
            'INSERT INTO eval_lamps (id, owner, is_on, version, locked) VALUES (?, ?, ?, 1, 0) ON CONFLICT DO NOTHING',
            [lamp.id, lamp.owner, lamp.is_on],
          );
        }
      },
      async reset() {
        await db.execute('DELETE FROM eval_lamps');
      },
      async fixtures() {
        return {
          lamps: {
            off: [{ id: 'lamp_kitchen' }],
            on: [{ id: 'lamp_porch' }],
            foreign: [{ id: 'lamp_garage' }],
          },
        };
      },
      async simulate(target: string, action: string, params: Record<string, unknown>) {
        if (target !== 'grid' || action !== 'lock') return null;
        await db.execute('UPDATE eval_lamps SET locked = 1, version = version + 1 WHERE id = ?', [
          String(params.lamp_id),
        ]);
        await ledger.record({
          system: 'grid',
          action: 'lock',
          ref: String(params.lamp_id),
          tenant: 'home',
          requestId: null,
          data: {},
        });
        return { locked: params.lamp_id };
      },
    },
  );
}

export const lampsDomain: ToolgateModule = {
  name: 'lamps',
  migrations: [
    ...simulationMigrations,
    {
      id: '9000_eval_lamps',
      sql: `CREATE TABLE eval_lamps (id TEXT PRIMARY KEY, owner TEXT NOT NULL, is_on INTEGER NOT NULL,
        version INTEGER NOT NULL, locked INTEGER NOT NULL)`,
    },
  ],
  create: createLamps,
};
