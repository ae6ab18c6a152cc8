import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../../../test/support/start-gateway.ts';
import { type StoreLocation, storeTargets } from '../../../test/support/store-targets.ts';
import { demoId } from '../src/orders/demo-orders.ts';

/** Values no string input of a reference tool may take: they would be stored and sent on as they are. */
const POISON: Record<string, (valid: string) => string> = {
  NUL: (v) => `${v.slice(0, 2)}\u0000${v.slice(2)}`,
  ESC: (v) => `${v}\u001b[2J`,
  'right-to-left override': (v) => `\u202e${v}`,
  'zero-width only': () => '\u200b\u200b\u200b',
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Every string leaf of an example input, with a setter that returns a copy holding another value. */
function stringLeaves(value: Json, path: string[] = []): { path: string; set: (v: string) => Json }[] {
  if (typeof value === 'string') return [{ path: path.join('.'), set: (v) => v }];
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) =>
    stringLeaves(child, [...path, key]).map((leaf) => ({
      path: leaf.path,
      set: (v: string) => {
        const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, Json>;
        copy[key] = leaf.set(v);
        return copy as Json;
      },
    })),
  );
}

/** A demo principal holding every scope the tool requires. */
function callerFor(gw: StartedGateway, scopes: readonly string[]): string {
  const preferred = ['changes_engineer', 'acme-support-sam', 'workitems_member', 'acme-customer-alice'];
  const holder = [...simulationOf(gw.app).principals]
    .sort((a, b) => preferred.indexOf(b.name) - preferred.indexOf(a.name))
    .find((p) => scopes.every((s) => p.scopes.includes(s)));
  if (!holder) throw new Error(`no demo principal holds ${scopes.join(' ')}`);
  return holder.name;
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`what agents send to the reference tools, on ${target.dialect}`, () => {
    let gw: StartedGateway;
    let location: StoreLocation;
    beforeAll(async () => {
      location = await target.create();
      gw = await startGateway({ databaseUrl: location.config.databaseUrl, app: { backgroundJobs: false } });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    it('every published example passes input validation, and one with a dry run validates today', async () => {
      const tools = gw.app.registry.all();
      expect(tools.length).toBeGreaterThan(10);
      for (const { definition } of tools) {
        for (const example of definition.examples) {
          const parsed = definition.input.safeParse(example.input);
          expect(parsed.error?.issues, `${definition.name}: ${example.title}`).toBeUndefined();
          if (!definition.supportsDryRun) continue;
          const caller = callerFor(gw, definition.scopes);
          const answer = await gw.callTool(caller, definition.name, { ...example.input, dry_run: true });
          expect(answer, `${definition.name}: ${example.title}`).toMatchObject({
            ok: true,
            status: 'validated',
            operation_id: null,
          });
        }
      }
    });

    it('no string input of any reference tool takes a control, bidirectional or invisible-only value', () => {
      let checked = 0;
      for (const { definition } of gw.app.registry.all()) {
        for (const example of definition.examples) {
          for (const leaf of stringLeaves(example.input as Json)) {
            const valid = String(
              leaf.path
                .split('.')
                .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], example.input),
            );
            for (const [name, poison] of Object.entries(POISON)) {
              const parsed = definition.input.safeParse(leaf.set(poison(valid)));
              expect(parsed.success, `${definition.name} ${leaf.path} took ${name}`).toBe(false);
              checked += 1;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(100);
    });

    it('a NUL, an escape or a bidirectional override is refused before anything runs, with one field error', async () => {
      const order = demoId('ord_', 'alice-editable');
      const before = await gw.app.db.query('SELECT version, delivery_address FROM orders WHERE id = ?', [
        order,
      ]);
      const address = await gw.callTool('acme-customer-alice', 'orders_change_unshipped_address', {
        order_id: order,
        expected_order_version: 2,
        new_address: {
          recipient_name: 'Alice\u0000Moreau',
          address_line_1: '350 Oak Street',
          locality: 'Columbus',
          administrative_area: 'OH',
          postal_code: '43215',
          country_code: 'US',
        },
        idempotency_key: `nul-address-${target.dialect}-0001`,
      });
      expect(address).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        operation_id: null,
        field_errors: [{ field: 'new_address.recipient_name', code: 'INVALID_TEXT' }],
      });
      expect(address.field_errors[0]!.message).toContain('U+0000');

      const title = await gw.callTool('workitems_member', 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Checkout \u001b[31mbroken',
        idempotency_key: `esc-title-${target.dialect}-00001`,
      });
      expect(title).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        operation_id: null,
        field_errors: [{ field: 'title', code: 'INVALID_TEXT' }],
      });

      const summary = await gw.callTool('changes_engineer', 'change_create', {
        ...(gw.app.registry.get('change_create')!.definition.examples[0]!.input as Record<string, unknown>),
        summary: 'Deploy payment \u202eetadpu timeout',
        dry_run: false,
      });
      expect(summary).toMatchObject({
        status: 'failed',
        code: 'INVALID_ARGUMENT',
        operation_id: null,
        field_errors: [{ field: 'summary', code: 'INVALID_TEXT' }],
      });
      expect(summary.field_errors[0]!.message).toContain('U+202E');

      // Nothing was stored, reserved or sent anywhere.
      expect(
        await gw.app.db.query('SELECT version, delivery_address FROM orders WHERE id = ?', [order]),
      ).toEqual(before);
      expect(await gw.app.db.query('SELECT draft_id FROM workitems_drafts')).toEqual([]);
      expect(
        await gw.app.db.query(
          "SELECT change_id FROM ext_change_records WHERE summary LIKE 'Deploy payment%'",
        ),
      ).toEqual([]);
      expect(await gw.app.db.query('SELECT id FROM operations')).toEqual([]);
      expect(await simulationWorld(gw.app.db).ledger.list({})).toEqual([]);
    });
  });
}
