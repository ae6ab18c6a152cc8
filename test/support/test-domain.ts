import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
  simulationMigrations,
  throughFaults,
  withSimulation,
  withSimulationHooks,
} from '@toolgate/simulation';
import type {
  ConfirmFallback,
  ConfirmSpec,
  ModuleContext,
  ModuleInstance,
  Principal,
  SqlExecutor,
  ToolgateModule,
} from 'toolgate';
import { defineErrorCodes, defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import { z } from 'zod';
import { TestBank } from './test-bank.ts';

export const TEST_SYSTEM = 'test_bank';

const errors = defineErrorCodes({
  CREDIT_REFUSED: { category: 'policy', retryable: false, description: 'The bank refused the credit.' },
  CREDIT_NOT_APPLIED: {
    category: 'state',
    retryable: false,
    description: 'The bank has no record of the credit; it did not happen.',
  },
});

export interface TestDomainOptions {
  /** Time the handler spends before applying the effect (makes concurrent deliveries overlap). */
  readonly delayMs?: number;
  /** Runs when an execution's handler starts, its key reserved (before the delay). */
  readonly onExecute?: (operationId: string) => void;
  readonly timeoutMs?: number;
  /** Runs after the effect was applied and before the handler returns (the crash test stops here). */
  readonly afterApply?: (operationId: string) => Promise<void>;
  /** How the bank answers status queries: `answer` (default), `down` (no answer), `no_query` (escalate). */
  readonly statusQuery?: () => 'answer' | 'down' | 'no_query';
  /**
   * What the bank tells the confirming tools' question about the account (bound as facts: when it
   * changes between the question and the answer, nothing runs); null: the bank cannot say.
   */
  readonly accountFacts?: () => Record<string, unknown> | null;
}

const creditInput = z.strictObject({
  account: z.string().min(1).max(40).describe('Account to credit.'),
  amount: z.number().int().min(1).max(1_000_000).describe('Amount in cents.'),
  memo: z.string().max(200).optional().describe('Free text for the statement line.'),
  confirm_duplicate: z
    .boolean()
    .optional()
    .describe('True to confirm a credit that looks like a recent one.'),
  idempotency_key: idempotencyKeySchema,
  dry_run: z.boolean().default(false).describe('True to check without crediting.'),
  confirmation: z
    .string()
    .max(64)
    .optional()
    .describe('The confirmation the answer named, once the user confirmed (relayed confirmations only).'),
});

/** Credits of at least this amount ask the person first (on the tools that confirm). */
export const CONFIRMED_FROM_AMOUNT = 1_000;

/** What the confirming test tools ask: large credits, with a choice when there is a memo. */
function creditConfirmation(
  fallback: ConfirmFallback,
  accountFacts: TestDomainOptions['accountFacts'],
): ConfirmSpec<z.output<typeof creditInput>> {
  return {
    when: `credits of ${CONFIRMED_FROM_AMOUNT} cents or more`,
    fallback,
    async ask(input) {
      if (input.account === 'unreachable') {
        return {
          refuse: outcome.failed('DEPENDENCY_UNAVAILABLE', 'The bank cannot tell what this would do.'),
        };
      }
      if (input.amount < CONFIRMED_FROM_AMOUNT) return null;
      const found = accountFacts ? accountFacts() : {};
      if (found === null) {
        return {
          refuse: outcome.failed('DEPENDENCY_UNAVAILABLE', 'The bank cannot say what this would do.'),
        };
      }
      const facts = { ...(input.memo ? { memo: input.memo } : {}), ...found };
      return {
        message: `Credit ${input.amount} cents to account ${input.account}.`,
        details: { account: input.account, amount: input.amount },
        ...(input.memo
          ? {
              choice: {
                title: 'Statement line',
                options: [
                  { value: 'print', title: `Print "${input.memo}"` },
                  { value: 'omit', title: 'Leave it off' },
                ],
              },
            }
          : {}),
        ...(Object.keys(facts).length > 0 ? { facts } : {}),
      };
    },
  };
}
const creditResult = z.strictObject({
  transfer_id: z.string().nullable(),
  account: z.string(),
  amount: z.number().int(),
  applied: z.boolean(),
});

/**
 * A test-only domain: `testing_credit_account` credits an account at a simulated bank that applies
 * each credit once per operation id and writes it to the effects ledger; every handler execution is
 * recorded in `test_executions` (shared by all processes on one database). `testing_send_gift` is
 * the same credit with duplicate suspicion; `testing_gift_confirmed` has both duplicate suspicion and
 * the person's confirmation.
 */
export function testDomain(options: TestDomainOptions = {}): ToolgateModule {
  return {
    name: 'testing',
    migrations: [
      ...simulationMigrations,
      {
        id: '0900_testing',
        sql: `CREATE TABLE test_executions (execution_id TEXT PRIMARY KEY, operation_id TEXT, tool TEXT NOT NULL,
            mode TEXT NOT NULL, pid INTEGER NOT NULL, at BIGINT NOT NULL, confirmed TEXT, subject TEXT NOT NULL);
          CREATE TABLE test_reconciles (call_id TEXT PRIMARY KEY, operation_id TEXT NOT NULL, pid INTEGER NOT NULL,
            at BIGINT NOT NULL);
          CREATE TABLE test_bank_credits (request_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, account TEXT NOT NULL,
            amount INTEGER NOT NULL, at BIGINT NOT NULL)`,
      },
    ],
    create: (context) => createTestDomain(context, options),
  };
}

function createTestDomain(moduleContext: ModuleContext, options: TestDomainOptions): ModuleInstance {
  const context = withSimulation(moduleContext);
  const { db, faults, clock } = context;
  const bank = new TestBank(db, context.ledger, TEST_SYSTEM);
  const credit = (name: string, suspicion: boolean, confirm?: ConfirmFallback) =>
    defineTool({
      name,
      title: 'Credit an account',
      description:
        'Credits an account at the test bank. Test-only tool: records every execution and applies one credit per operation.',
      kind: 'write',
      mutation: 'create',
      externalSystems: [TEST_SYSTEM],
      version: '1.0.0',
      input: creditInput,
      output: creditResult,
      errors: [errors.CREDIT_REFUSED, errors.CREDIT_NOT_APPLIED],
      scopes: ['testing:write'],
      timeoutMs: options.timeoutMs ?? 5_000,
      supportsDryRun: true,
      ...(suspicion ? { duplicateSuspicion: { windowSeconds: 600, confirmField: 'confirm_duplicate' } } : {}),
      ...(confirm ? { confirm: creditConfirmation(confirm, options.accountFacts) } : {}),
      examples: [
        { title: 'Credit', input: { account: 'acc-1', amount: 100, idempotency_key: 'example-key-000001' } },
      ],
      async handler(input, ctx) {
        const operationId = ctx.operation?.id ?? null;
        const confirmed = ctx.confirmation
          ? `${ctx.confirmation.via}:${ctx.confirmation.choice ?? ''}:${ctx.confirmation.digest}`
          : null;
        await recordExecution(db, {
          tool: name,
          operationId,
          mode: input.dry_run ? 'dry_run' : 'execute',
          at: clock.now(),
          confirmed,
          subject: ctx.principal.subject,
        });
        if (input.dry_run || !operationId) {
          return outcome.validated({
            transfer_id: null,
            account: input.account,
            amount: input.amount,
            applied: false,
          });
        }
        options.onExecute?.(operationId);
        if (options.delayMs) await sleep(options.delayMs);
        try {
          await throughFaults(faults, TEST_SYSTEM, { action: 'credit' }, ctx.signal, () =>
            bank.credit(operationId, ctx.principal.tenant, input.account, input.amount),
          );
        } catch (error) {
          if (error instanceof ExternalUnavailableError) {
            return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The bank is unavailable; nothing was credited.');
          }
          if (error instanceof ExternalRejectedError)
            return outcome.rejected('CREDIT_REFUSED', error.message);
          if (error instanceof ExternalOutcomeUnknownError) {
            return outcome.unknown(
              'OUTCOME_UNKNOWN',
              'The bank did not answer; the credit may have happened.',
            );
          }
          throw error;
        }
        await ctx.operation?.addExternalRef(TEST_SYSTEM, operationId);
        if (options.afterApply) await options.afterApply(operationId);
        return outcome.completed({
          transfer_id: operationId,
          account: input.account,
          amount: input.amount,
          applied: true,
        });
      },
      async reconcile(operation) {
        await db.execute('INSERT INTO test_reconciles (call_id, operation_id, pid, at) VALUES (?, ?, ?, ?)', [
          randomUUID(),
          operation.id,
          process.pid,
          clock.now(),
        ]);
        const mode = options.statusQuery?.() ?? 'answer';
        if (mode === 'no_query')
          return { settled: false, note: 'the bank has no status query', escalate: true };
        if (mode === 'down') return { settled: false, note: 'the bank did not answer the status query' };
        const found = await bank.lookup(operation.id);
        if (!found)
          return {
            settled: true,
            outcome: outcome.rejected('CREDIT_NOT_APPLIED', 'The bank has no such credit.'),
          };
        return {
          settled: true,
          outcome: outcome.completed({
            transfer_id: operation.id,
            account: found.account,
            amount: found.amount,
            applied: true,
          }),
        };
      },
    });
  return withSimulationHooks(
    {
      tools: [
        credit('testing_credit_account', false),
        credit('testing_send_gift', true),
        credit('testing_credit_confirmed', false, 'refuse'),
        credit('testing_credit_relayed', false, 'agent'),
        credit('testing_credit_approved', false, 'operator'),
        credit('testing_gift_confirmed', true, 'refuse'),
      ],
    },
    {
      principals: [],
      async seed() {},
      async reset() {
        faults.clear(TEST_SYSTEM);
        await context.ledger.clear([TEST_SYSTEM]);
        await db.execute('DELETE FROM test_executions');
        await db.execute('DELETE FROM test_bank_credits');
        await db.execute('DELETE FROM test_reconciles');
      },
      async fixtures() {
        return {};
      },
    },
  );
}

/** One handler execution: which tool, operation and mode, how it was confirmed, and as whom it ran. */
interface Execution {
  readonly tool: string;
  readonly operationId: string | null;
  readonly mode: string;
  readonly at: number;
  readonly confirmed: string | null;
  readonly subject: string;
}

async function recordExecution(db: SqlExecutor, e: Execution): Promise<void> {
  await db.execute(
    'INSERT INTO test_executions (execution_id, operation_id, tool, mode, pid, at, confirmed, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [randomUUID(), e.operationId, e.tool, e.mode, process.pid, e.at, e.confirmed, e.subject],
  );
}

/** Handler executions recorded so far, optionally of one mode. */
export async function executions(
  db: SqlExecutor,
  mode?: 'execute' | 'dry_run',
): Promise<
  {
    operation_id: string | null;
    tool: string;
    mode: string;
    pid: number;
    confirmed: string | null;
    subject: string;
  }[]
> {
  const where = mode ? ' WHERE mode = ?' : '';
  return db.query(
    `SELECT operation_id, tool, mode, pid, confirmed, subject FROM test_executions${where} ORDER BY at`,
    mode ? [mode] : [],
  );
}

/** Reconcile hook calls recorded so far: which process asked about which operation. */
export function reconcileCalls(db: SqlExecutor): Promise<{ operation_id: string; pid: number }[]> {
  return db.query('SELECT operation_id, pid FROM test_reconciles ORDER BY at');
}

export function testPrincipal(
  subject: string,
  overrides: Partial<Pick<Principal, 'tenant' | 'actor'>> & { scopes?: string[] } = {},
): Principal {
  return {
    subject,
    tenant: overrides.tenant ?? 'tenant-a',
    actor: overrides.actor ?? 'customer',
    scopes: new Set(overrides.scopes ?? ['testing:write', 'operations:read']),
  };
}
