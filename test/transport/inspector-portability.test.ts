import { join } from 'node:path';
import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InspectorListing, inspectorToolsList } from '../support/inspector-cli.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

const UNPORTABLE_SERVER = join(import.meta.dirname, 'fixtures/zod-default-schema-server.mjs');

/**
 * MCP Inspector's schema portability check (`tools/list --strict`) over every demo principal's view
 * of the listing: together they see every tool, and none of their schemas draws a finding.
 */
describe('MCP Inspector portability check against the demo', () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  test("finds zod's own JSON Schema of a nullable field and an open record unportable", async () => {
    const listed = await inspectorToolsList(['node', UNPORTABLE_SERVER], { catalogDir: gw.dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.portability).toEqual([
      'Warning: tool "notes_get"',
      'Warning: tool "notes_get"',
      '0 errors, 2 warnings across 1 tool.',
    ]);
  }, 30_000);

  test('reports nothing for any principal, and the principals together list every tool', async () => {
    const listOf = async (name: string) => {
      const token = await gw.tokenFor(name);
      return inspectorToolsList(
        [gw.url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`],
        {
          catalogDir: gw.dataDir,
        },
      );
    };
    const names = simulationOf(gw.app).principals.map((principal) => principal.name);
    const listings: (readonly [string, InspectorListing])[] = [];
    // A few Inspector processes at a time: each mostly waits on its own start-up.
    for (let i = 0; i < names.length; i += 3) {
      const batch = names.slice(i, i + 3);
      listings.push(...(await Promise.all(batch.map(async (name) => [name, await listOf(name)] as const))));
    }
    for (const [, listed] of listings) expect(listed.code, listed.stderr).toBe(0);
    const findings = Object.fromEntries(
      listings
        .filter(([, listed]) => listed.portability.length > 0)
        .map(([name, l]) => [name, l.portability]),
    );
    expect(findings).toEqual({});
    const seen = new Set(listings.flatMap(([, listed]) => listed.tools.map((tool) => tool.name)));
    expect(names.length).toBeGreaterThan(10);
    expect([...seen].sort()).toEqual(gw.app.registry.all().map((tool) => tool.definition.name));
  }, 120_000);
});
