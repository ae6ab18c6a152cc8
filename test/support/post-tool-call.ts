/**
 * One stateless 2025-11-25 `tools/call` POST with a bearer token, as a client without the SDK sends it;
 * the raw response, so a test can read its status and headers as well as its body.
 */
export function postToolCall(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}
