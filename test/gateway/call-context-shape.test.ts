import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const EXECUTION_LAYER = new URL('../../dist/gateway/execution-layer.js', import.meta.url).href;

/**
 * Every handler call gets a context of one hidden class. Run in a child process with V8's natives
 * syntax, which can compare the maps of two objects: two contexts from different calls (one whose
 * handler made its logger, one whose did not) must share a map. A context built with a fresh accessor
 * per call has a map of its own each time, which turns every property read in a handler megamorphic
 * and fills the old generation with maps under load.
 */
const SCRIPT = `
const { executeWithTimeout } = await import(${JSON.stringify(EXECUTION_LAYER)});
const seen = [];
const tool = (logs) => ({
  definition: {
    name: 'shape_probe',
    timeoutMs: 1000,
    handler: async (_args, ctx) => {
      if (logs) ctx.log.info('made the logger');
      seen.push(ctx);
      return { status: 'completed', result: {} };
    },
  },
});
const logger = () => ({ info() {} });
const principal = { subject: 's', tenant: 't', actor: 'service', scopes: new Set() };
await executeWithTimeout(tool(false), {}, { principal, correlationId: 'a', operation: null }, undefined, logger);
await executeWithTimeout(tool(true), {}, { principal, correlationId: 'b', operation: null, traceparent: '00-x' }, new AbortController().signal, logger);
process.stdout.write(JSON.stringify({ calls: seen.length, sameMap: %HaveSameMap(seen[0], seen[1]) }));
`;

describe('the context a handler gets', () => {
  it('has the same hidden class on every call', () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ calls: 2, sameMap: true });
  });
});
