/**
 * One case under load: the JSON-RPC request it posts, and what a correct answer looks like (the load
 * generator only sees that a call answered a result, so a sample is checked before the load).
 */
export interface LoadCase {
  readonly name: string;
  readonly url: string;
  readonly token: string | null;
  readonly request: (i: number) => { method: string; params: Record<string, unknown> };
  /** Why a sample answer is wrong, or null: a load of error answers would flatter the server. */
  readonly check: (result: Record<string, unknown>) => string | null;
  /** A request posted once before the sample (the original call a replay repeats). */
  readonly setup?: { method: string; params: Record<string, unknown> };
}

/** A tools/call request. */
export const toolCall = (name: string, args: Record<string, unknown>) => ({
  method: 'tools/call',
  params: { name, arguments: args },
});
/** A tools/list request. */
export const toolsList = { method: 'tools/list', params: {} };

/** Any answer that is not a tool error (the no-op anchors). */
export const answeredOk = (result: Record<string, unknown>) =>
  result.isError === true ? `tool error: ${JSON.stringify(result).slice(0, 300)}` : null;
/** A gateway envelope that is ok, replayed or not as expected. */
export const gatewayOk = (expectReplay: boolean) => (result: Record<string, unknown>) => {
  const envelope = result.structuredContent as { ok?: boolean; replayed?: boolean } | undefined;
  if (envelope?.ok !== true) return `not ok: ${JSON.stringify(result).slice(0, 300)}`;
  return envelope.replayed === expectReplay
    ? null
    : `replayed is ${envelope.replayed}, expected ${expectReplay}`;
};
/** A tools/list answer with at least `count` tools. */
export const listsAtLeast = (count: number) => (result: Record<string, unknown>) => {
  const tools = result.tools as unknown[] | undefined;
  return (tools?.length ?? 0) >= count
    ? null
    : `tools/list answered ${tools?.length ?? 0} tools, expected ${count}+`;
};

/** A first tools/list page of a long listing: `count` tools and a cursor to the next page. */
export const pagesOf = (count: number) => (result: Record<string, unknown>) => {
  const problem = listsAtLeast(count)(result);
  if (problem) return problem;
  return typeof result.nextCursor === 'string' ? null : 'a long listing answered without nextCursor';
};

/** Posts one request of the case outside the measured load; answers the JSON-RPC answer. */
async function post(
  load: LoadCase,
  request: { method: string; params: Record<string, unknown> },
): Promise<{ result?: Record<string, unknown>; error?: unknown }> {
  const response = await fetch(load.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(load.token ? { authorization: `Bearer ${load.token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', ...request }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
}

/** Posts the case's setup and one sample request, and throws unless both answers are right. */
export async function probe(load: LoadCase): Promise<void> {
  const answers = [
    ...(load.setup ? [{ answer: await post(load, load.setup), check: gatewayOk(false) }] : []),
    { answer: await post(load, load.request(-1)), check: load.check },
  ];
  for (const { answer, check } of answers) {
    const problem = answer.result ? check(answer.result) : `JSON-RPC error ${JSON.stringify(answer.error)}`;
    if (problem) throw new Error(`${load.name}: ${problem}`);
  }
}
