import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const EXECUTION_LAYER = new URL('../../packages/toolgate/dist/gateway/execution-layer.js', import.meta.url)
  .href;

/**
 * Every handler call gets a context of one hidden class. Run in a child process with V8's natives
 * syntax, which can compare the maps of objects: contexts from different calls (with and without a
 * client signal or a traceparent, whose handler made its logger or did not) must share one map and
 * keep fast properties. A context built with a fresh accessor per call gets a map of its own or falls
 * into dictionary mode, which turns every property read in a handler megamorphic and fills the old
 * generation with maps under load.
 */
const SCRIPT = `
const { executeWithTimeout } = await import(${JSON.stringify(EXECUTION_LAYER)});
const seen = [];
const copies = [];
const tool = (logs) => ({
  definition: {
    name: 'shape_probe',
    timeoutMs: 1000,
    handler: async (_args, ctx) => {
      if (logs) ctx.log.info('made the logger');
      seen.push(ctx);
      // A handler may pass its context on as a copy: the logger comes along.
      copies.push(typeof { ...ctx }.log?.info === 'function');
      return { status: 'completed', result: {} };
    },
  },
});
const logger = () => ({ info() {} });
const principal = { subject: 's', tenant: 't', actor: 'service', scopes: new Set() };
for (let i = 0; i < 6; i++) {
  const signal = i % 2 ? new AbortController().signal : undefined;
  const extra = i % 3 ? {} : { traceparent: '00-x' };
  await executeWithTimeout(tool(i % 2 === 1), {}, { principal, correlationId: 'c' + i, operation: null, ...extra }, signal, logger);
}
const sameMap = seen.every((ctx) => %HaveSameMap(seen[0], ctx));
const fastProperties = seen.every((ctx) => %HasFastProperties(ctx));
const copiesLog = copies.every(Boolean);
process.stdout.write(JSON.stringify({ calls: seen.length, sameMap, fastProperties, copiesLog }));
`;

describe('the context a handler gets', () => {
  it('has the same hidden class on every call', () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      calls: 6,
      sameMap: true,
      fastProperties: true,
      copiesLog: true,
    });
  });
});
