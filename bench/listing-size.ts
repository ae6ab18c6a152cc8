import { referenceDomains } from '@toolgate/domains';
import { loadServedRegistry } from 'toolgate/server';
import type { BenchReport } from './bench-section.ts';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Bytes of every `description` string in a JSON document: what a slimmer listing must keep. */
function descriptionBytes(node: unknown): number {
  if (node === null || typeof node !== 'object') return 0;
  let total = 0;
  for (const [key, child] of Object.entries(node)) {
    total += key === 'description' && typeof child === 'string' ? bytes(child) : descriptionBytes(child);
  }
  return total;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The demo's tools/list entries as compact JSON, tool by tool: the whole entry, its input and output
 * schemas, the output schema's envelope part (everything but `result`) and the bytes of descriptions,
 * which a smaller listing must not lose. Deterministic: no timing, one run is the answer.
 */
export async function listingSizeBench(): Promise<BenchReport> {
  const registry = await loadServedRegistry(referenceDomains);
  const rows = registry.listing().map((entry) => {
    const output = entry.outputSchema as { properties: Record<string, unknown>; $defs?: unknown };
    const { result, ...envelope } = output.properties;
    return {
      name: String(entry.name),
      values: [
        bytes(entry),
        bytes(entry.inputSchema),
        bytes(output),
        bytes({ ...output, properties: envelope }),
        bytes(result),
        descriptionBytes(entry),
      ],
    };
  });
  const whole = rows.map((row) => row.values[0]!);
  return {
    table: {
      columns: [
        { title: 'entry B', digits: 0 },
        { title: 'input B', digits: 0 },
        { title: 'output B', digits: 0 },
        { title: 'envelope B', digits: 0 },
        { title: 'result B', digits: 0 },
        { title: 'descr. B', digits: 0 },
      ],
      rows,
    },
    measures: [
      { name: 'tools/list entry, median', value: median(whole), unit: 'B' },
      { name: 'tools/list entry, largest', value: Math.max(...whole), unit: 'B' },
      { name: 'tools/list entries, all tools', value: whole.reduce((a, b) => a + b, 0), unit: 'B' },
    ],
  };
}
