import type { ToolRegistry } from '../contract/tool-registry.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';

/** A served tool with its contract version and what this process counted for it since start. */
export interface ToolCatalogEntry {
  readonly name: string;
  readonly title: string;
  readonly kind: string;
  readonly contract_version: string;
  readonly scopes: readonly string[];
  readonly calls: Record<string, number>;
  readonly error_codes: Record<string, number>;
}

/**
 * The tool catalog joined with the call counters of this process (all tenants: the counters carry no
 * tenant label, by design of bounded labels). A fleet's totals are in Prometheus, not here.
 */
export async function toolCatalogView(
  registry: ToolRegistry,
  metrics: GatewayMetrics,
): Promise<ToolCatalogEntry[]> {
  const calls = (await metrics.calls.get()).values;
  const errors = (await metrics.errors.get()).values;
  return registry.all().map(({ definition }) => {
    const byStatus: Record<string, number> = {};
    for (const v of calls) {
      if (v.labels.tool === definition.name) byStatus[String(v.labels.status)] = v.value;
    }
    const byCode: Record<string, number> = {};
    for (const v of errors) {
      if (v.labels.tool === definition.name) byCode[String(v.labels.code)] = v.value;
    }
    return {
      name: definition.name,
      title: definition.title,
      kind: definition.kind,
      contract_version: definition.version,
      scopes: definition.scopes,
      calls: byStatus,
      error_codes: byCode,
    };
  });
}
