import { request } from 'node:http';

export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** One raw HTTP POST; rejects if no answer arrives within `withinMs` (a hung request is a failure). */
export function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  withinMs = 5_000,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${withinMs} ms`));
    }, withinMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}
