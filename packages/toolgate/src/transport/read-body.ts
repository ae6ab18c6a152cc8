import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads a request body up to `limit` bytes. A declared Content-Length over the limit is refused
 * before reading; a chunked body is cut off as soon as it passes the limit.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({
        ok: true,
        text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      });
    });
    req.on('error', () => {
      if (settled) return;
      settled = true;
      resolve({ ok: false, reason: 'aborted' });
    });
  });
}
