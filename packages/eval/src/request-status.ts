import type { Prober } from './state-checks.ts';
import type { CallRecord } from './transcript.ts';

/**
 * What the gateway records about the request once the trial is over, in plain lines: each operation
 * the trial's calls recorded with its status now (read with operations_get, as the caller would),
 * and each call refused before anything was recorded. A line that cannot be read says so; this
 * never throws, since it only informs a second opinion.
 */
export async function requestStatus(calls: readonly CallRecord[], probe: Prober): Promise<string[]> {
  const lines: string[] = [];
  const operations = new Map<string, CallRecord>();
  for (const call of calls) {
    const id = call.envelope?.operation_id;
    if (id) {
      if (!operations.has(id)) operations.set(id, call);
      continue;
    }
    if (call.protocolError !== null)
      lines.push(`call ${call.index} ${call.tool}: protocol error, nothing recorded`);
    else if (call.envelope && call.envelope.status !== 'completed')
      lines.push(
        `call ${call.index} ${call.tool}: ${call.envelope.status}${call.envelope.code ? ` (${call.envelope.code})` : ''}, nothing recorded`,
      );
  }
  for (const [id, call] of operations) lines.push(await operationLine(id, call, probe));
  if (operations.size === 0)
    lines.push(`no operation was recorded for this request (${calls.length} tool call(s) made)`);
  return lines;
}

async function operationLine(id: string, call: CallRecord, probe: Prober): Promise<string> {
  try {
    const answer = (await probe('operations_get', { operation_id: id }, undefined)) as {
      result?: { status?: unknown; outcome?: { code?: unknown } | null };
    } | null;
    const status = answer?.result?.status;
    if (typeof status !== 'string') return `operation ${id} (${call.tool}): status not readable`;
    const code = answer?.result?.outcome?.code;
    return `operation ${id} (${call.tool}): ${status}${typeof code === 'string' ? ` (${code})` : ''}`;
  } catch (error) {
    return `operation ${id} (${call.tool}): status not readable (${error instanceof Error ? error.message : String(error)})`;
  }
}
