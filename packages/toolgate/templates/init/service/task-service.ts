// The tasks service the tools call: plain node:http, tasks kept in memory. It stores the first answer
// per Idempotency-Key, so a write whose answer was lost can be sent again and is applied once.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Task {
  readonly task_id: string;
  readonly owner: string;
  readonly title: string;
  readonly created_at: string;
}

export interface TaskService {
  readonly url: string;
  /** Every task created so far: what a test checks after a call. */
  tasks(): readonly Task[];
  /** The next create is applied, then its answer is lost (the connection is cut before any byte). */
  loseNextAnswer(): void;
  close(): Promise<void>;
}

const TASK_PATH = /^\/tasks\/([A-Za-z0-9_]{1,40})$/;
const KEY_PATH = /^\/operations\/([A-Za-z0-9._:-]{1,128})$/;

/** Starts the service on `port` (0 picks a free one) and answers once it listens. */
export async function startTaskService(port = 0, host = '127.0.0.1'): Promise<TaskService> {
  const tasks = new Map<string, Task>();
  const answersByKey = new Map<string, Task>();
  // Keys asked about before they arrived: refused from then on, so "never applied" stays true.
  const fencedKeys = new Set<string>();
  let loseNext = false;

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://service');
    const owner = url.searchParams.get('owner') ?? '';
    const task = TASK_PATH.exec(url.pathname);
    if (request.method === 'GET' && task) {
      const found = tasks.get(task[1]!);
      return found && found.owner === owner ? send(response, 200, found) : send(response, 404, {});
    }
    const key = KEY_PATH.exec(url.pathname);
    if (request.method === 'GET' && key) {
      const answer = answersByKey.get(key[1]!);
      if (answer) return send(response, 200, { state: 'applied', task: answer });
      fencedKeys.add(key[1]!);
      return send(response, 404, {});
    }
    if (request.method === 'POST' && url.pathname === '/tasks') {
      const idempotencyKey = request.headers['idempotency-key'];
      if (typeof idempotencyKey !== 'string')
        return send(response, 400, { error: 'idempotency_key_missing' });
      const stored = answersByKey.get(idempotencyKey);
      if (stored) return send(response, 201, stored);
      if (fencedKeys.has(idempotencyKey)) return send(response, 409, { error: 'key_fenced' });
      const body = (await readJson(request)) as { title?: unknown } | undefined;
      if (!owner || typeof body?.title !== 'string') return send(response, 400, { error: 'bad_request' });
      const created: Task = {
        task_id: `task_${tasks.size + 1}`,
        owner,
        title: body.title,
        created_at: new Date().toISOString(),
      };
      tasks.set(created.task_id, created);
      answersByKey.set(idempotencyKey, created);
      if (loseNext) {
        loseNext = false;
        return request.socket.destroy();
      }
      return send(response, 201, created);
    }
    return send(response, 404, {});
  });

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    tasks: () => [...tasks.values()],
    loseNextAnswer: () => {
      loseNext = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
