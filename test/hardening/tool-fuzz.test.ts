import { simulationOf, simulationWorld } from '@toolgate/simulation';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { rawPost } from './raw-post.ts';

/** Runs per tool and store; TOOLGATE_FUZZ_RUNS=2000 for a long run outside CI. */
const RUNS = Number(process.env.TOOLGATE_FUZZ_RUNS ?? 60);
const SEED =
  process.env.TOOLGATE_FUZZ_SEED === undefined ? undefined : Number(process.env.TOOLGATE_FUZZ_SEED);

/** What no answer may contain: a stack frame, a source or data path, SQL. */
const LEAK =
  /\bat [\w.<>]+ \(|\.(ts|js|mjs):\d+|node_modules|\/srv\/|\/tmp\/|\/home\/|SQLITE_|syntax error at or near|\bSELECT\b.*\bFROM\b/;
const REFUSED = new Set(['failed', 'rejected', 'validated', 'requires_confirmation']);

const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u202etxt.exe',
    '\ud800',
    '\udfff\ud800',
    'a\u0301\u0301\u0301',
    '\ufeff',
    '𝕏𝕐ℤ',
    '../../etc/passwd',
    "'; DROP TABLE operations;--",
    '$'.concat('{7*7}{{7*7}}'),
    '<script>alert(1)</script>',
    'ord_00000000000000000000000000000000',
    '9'.repeat(400),
  ),
);
const nested = fc.integer({ min: 1, max: 3_000 }).map((depth) => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { v: value };
  return value;
});
const huge = fc.constantFrom(
  'x'.repeat(200_000),
  Array.from({ length: 20_000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e308, -1e308, 2 ** 53 + 1)),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.array(oddString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2, maxKeys: 4 }) },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: huge },
);
const meta = fc.oneof(
  fc.constant(undefined),
  fc.record({ 'io.toolgate/idempotency-key': fc.oneof(junk, fc.stringMatching(/^[A-Za-z0-9._:-]{16,40}$/)) }),
  fc.record({ progressToken: junk }),
  junk,
);

type Mutation =
  | { kind: 'set'; field: string; value: unknown }
  | { kind: 'drop'; field: string }
  | { kind: 'extra'; field: string; value: unknown }
  | { kind: 'replace'; value: unknown };

function mutationOf(fields: readonly string[]): fc.Arbitrary<Mutation> {
  const field = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('x');
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), field, value: junk }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), field }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('extra' as const), field: oddString, value: junk }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: junk }) },
  );
}

function apply(base: Record<string, unknown>, mutations: Mutation[]): unknown {
  let args: unknown = structuredClone(base);
  for (const m of mutations) {
    if (m.kind === 'replace') {
      // A shallow copy: generated values are shared (constantFrom hands out one instance), so setting a
      // field on the value itself would change it for later runs, or make it contain itself.
      args = Array.isArray(m.value)
        ? [...m.value]
        : typeof m.value === 'object' && m.value !== null
          ? { ...m.value }
          : m.value;
      continue;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) args = {};
    const target = args as Record<string, unknown>;
    if (m.kind === 'drop') delete target[m.field];
    else target[m.field] = m.value;
  }
  return args;
}

/**
 * Issue 14.5: every tool, from its registered schema and examples, under mutated and random
 * arguments and `_meta`: never a 5xx, never INTERNAL_ERROR, never a stack or path, and a refused
 * call leaves the effects ledger as it was. Runs on both stores.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`fuzzing every tool on ${target.dialect}`, () => {
    let location: StoreLocation;
    let gw: StartedGateway;
    const tokens = new Map<string, string>();

    beforeAll(async () => {
      location = await target.create();
      gw = await startGateway({
        databaseUrl: location.config.databaseUrl,
        app: { backgroundJobs: false },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    const tokenFor = async (scopes: readonly string[]): Promise<string> => {
      const demo =
        simulationOf(gw.app).principals.find((p) => scopes.every((s) => p.scopes.includes(s))) ??
        simulationOf(gw.app).principals[0]!;
      let token = tokens.get(demo.name);
      if (!token) {
        token = await gw.tokenFor(demo.name);
        tokens.set(demo.name, token);
      }
      return token;
    };
    const effects = async () => (await simulationWorld(gw.app.db).ledger.list()).length;

    test(
      'no tool answers a 5xx, INTERNAL_ERROR or a leak, and no refused call has an effect',
      async () => {
        const tools = gw.app.registry.all();
        expect(tools.length).toBeGreaterThan(5);
        for (const tool of tools) {
          const { definition } = tool;
          const token = await tokenFor(definition.scopes);
          const fields = Object.keys(definition.input.shape);
          const examples = definition.examples.map((e) => e.input as Record<string, unknown>);
          const base = examples.length > 0 ? fc.constantFrom(...examples) : fc.constant({});
          await fc.assert(
            fc.asyncProperty(
              base,
              fc.array(mutationOf(fields), { minLength: 0, maxLength: 3 }),
              meta,
              async (example, mutations, callMeta) => {
                const args = apply(example, mutations);
                const before = await effects();
                const params: Record<string, unknown> = { name: definition.name, arguments: args };
                if (callMeta !== undefined) params._meta = callMeta;
                const response = await rawPost(
                  gw.url,
                  {
                    authorization: `Bearer ${token}`,
                    'content-type': 'application/json',
                    accept: 'application/json',
                  },
                  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
                  30_000,
                );
                expect(response.status, response.body.slice(0, 300)).toBeLessThan(500);
                expect(response.body).not.toMatch(LEAK);
                const body = JSON.parse(response.body);
                const envelope = body.result?.structuredContent;
                if (!envelope) {
                  expect(body.error?.code, response.body.slice(0, 300)).toBeTypeOf('number');
                  expect(await effects()).toBe(before);
                  return;
                }
                expect(envelope.code, JSON.stringify(envelope).slice(0, 400)).not.toBe('INTERNAL_ERROR');
                expect(envelope.code).not.toBe('OUTPUT_CONTRACT_VIOLATION');
                if (REFUSED.has(envelope.status)) expect(await effects()).toBe(before);
              },
            ),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        }
      },
      Math.max(120_000, RUNS * 300),
    );
  });
}
