import type { PassThrough } from 'node:stream';

/** Reads the server's stdout as lines of JSON, in order. */
export function replies(stream: PassThrough) {
  const received: Record<string, unknown>[] = [];
  let buffered = '';
  const waiters: Array<() => void> = [];
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      received.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
      buffered = buffered.slice(end + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    received,
    async atLeast(count: number): Promise<Record<string, unknown>[]> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return received;
    },
  };
}
