import type { JsonRpcCall, RequestShape } from './request-shape.ts';

/**
 * One case under load: the JSON-RPC request it posts, in which revision's wire form, and what a correct
 * answer looks like (the load generator only sees that a call answered a result, so a sample is checked
 * before the load).
 */
export interface LoadCase {
  readonly name: string;
  readonly url: string;
  readonly token: string | null;
  /** The protocol revision the case speaks: its headers and body (the same call on either). */
  readonly shape: RequestShape;
  readonly request: (i: number) => JsonRpcCall;
  /** Why a sample answer is wrong, or null: a load of error answers would flatter the server. */
  readonly check: (result: Record<string, unknown>) => string | null;
  /** A request posted once before the sample (the original call a replay repeats). */
  readonly setup?: JsonRpcCall;
}

/** A tools/call request; `mirrored` are the argument headers the tool declares (x-mcp-header). */
export const toolCall = (
  name: string,
  args: Record<string, unknown>,
  mirrored?: Readonly<Record<string, string>>,
): JsonRpcCall => ({
  method: 'tools/call',
  params: { name, arguments: args },
  ...(mirrored ? { mirrored } : {}),
});
/** A tools/list request. */
export const toolsList: JsonRpcCall = { method: 'tools/list', params: {} };

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
  request: JsonRpcCall,
): Promise<{ result?: Record<string, unknown>; error?: unknown }> {
  const response = await fetch(load.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...load.shape.headers(request),
      ...(load.token ? { authorization: `Bearer ${load.token}` } : {}),
    },
    body: load.shape.body('probe', request),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
  } catch {
    return { error: `HTTP ${response.status}, not a JSON answer: ${text.slice(0, 200)}` };
  }
}

/**
 * Posts the case's setup and one sample request, and throws unless both answers are right, and of the
 * case's revision.
 */
export async function probe(load: LoadCase): Promise<void> {
  const answers = [
    ...(load.setup ? [{ answer: await post(load, load.setup), check: gatewayOk(false) }] : []),
    { answer: await post(load, load.request(-1)), check: load.check },
  ];
  for (const { answer, check } of answers) {
    const problem = answer.result
      ? (load.shape.mismatch(answer.result) ?? check(answer.result))
      : `JSON-RPC error ${JSON.stringify(answer.error)}`;
    if (problem) throw new Error(`${load.name}: ${problem}`);
  }
}
