import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectsGet } from '../../../../docs/examples/projects-get-tool.ts';
import { readOnlyIdempotency, recordingAuditSink } from '../../../../test/support/direct-gateway.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { Gateway } from '../../src/gateway/gateway.ts';
import { createLogger } from '../../src/telemetry/logger.ts';
import { GatewayMetrics } from '../../src/telemetry/metrics.ts';

const principal = (tenant: string) => ({
  subject: 'u1',
  tenant,
  actor: 'customer' as const,
  scopes: new Set(['projects:read']),
});

describe('the README example tool', () => {
  const logger = createLogger({ level: 'silent' });
  const registry = new ToolRegistry({ retentionSeconds: 60 }).register(projectsGet);
  const audit = recordingAuditSink();
  const gateway = new Gateway({
    registry,
    idempotency: readOnlyIdempotency,
    logger,
    metrics: new GatewayMetrics(),
    audit,
  });

  it('is the code the README shows', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const source = readFileSync(
      new URL('../../../../docs/examples/projects-get-tool.ts', import.meta.url),
      'utf8',
    );
    expect(readme).toContain(source.slice(source.indexOf('export const projectsGet')).trim());
  });

  it('the guide shows the config file the tests serve, as it is', () => {
    const guide = readFileSync(new URL('../../../../docs/build-your-own-tool.md', import.meta.url), 'utf8');
    const config = readFileSync(
      new URL('../../../../docs/examples/build-your-own/toolgate.config.ts', import.meta.url),
      'utf8',
    );
    expect(guide).toContain(config.trim());
  });

  it('registers and answers through the gateway, hiding other tenants', async () => {
    const call = { name: 'projects_get', arguments: { project_id: 'prj_0a1b2c3d' } };
    expect((await gateway.call(call, principal('acme'))).envelope).toMatchObject({
      status: 'completed',
      result: { name: 'Billing' },
    });
    expect((await gateway.call(call, principal('globex'))).envelope).toMatchObject({
      status: 'rejected',
      code: 'PROJECT_NOT_FOUND',
      category: 'not_found',
    });
    // Reads that are no refusal of authority leave no audit entry.
    expect(audit.entries).toEqual([]);
  });
});

describe('the confirmations guide', () => {
  const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

  it('shows the refund tool and its test as they are', () => {
    const guide = read('docs/confirmations.md');
    const tool = read('docs/examples/confirmations/refunds-tool.ts');
    const test = read('docs/examples/confirmations/refunds.test.ts');
    expect(guide).toContain(tool.slice(tool.indexOf('/** Refunds of this many cents')).trim());
    expect(guide).toContain(test.slice(test.indexOf('const ada =')).trim());
  });
});
