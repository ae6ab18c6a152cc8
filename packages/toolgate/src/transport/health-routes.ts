import type { ServerResponse } from 'node:http';
import type { App } from '../app/create-app.ts';
import { sendJson, sendText } from './http-replies.ts';

/** /healthz: the process is up and serving HTTP. */
export function serveHealth(res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' });
}

/** How long /readyz waits for the database before it answers 503. */
export const READINESS_DEADLINE_MS = 1_000;

/**
 * /readyz: the database answers within a second, so tool calls can be served, with the release the
 * gateway is pinned to (`release_id`, null for none); 503 otherwise.
 */
export async function serveReadiness(
  res: ServerResponse,
  app: App,
  deadlineMs = READINESS_DEADLINE_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  const probe = app.db.query('SELECT 1 AS ok').then(
    () => 'ready' as const,
    (error: unknown) => {
      app.logger.warn({ err: error }, 'readiness check failed');
      return 'failed' as const;
    },
  );
  const verdict = await Promise.race([probe, late]);
  clearTimeout(timer);
  if (verdict === 'ready') return sendJson(res, 200, { status: 'ready', release_id: app.releaseId });
  if (verdict === 'late')
    app.logger.warn({ deadlineMs }, 'readiness check: the database did not answer in time');
  sendJson(res, 503, { status: 'unavailable', reason: 'database did not answer' });
}

/** /metrics: Prometheus exposition of the gateway's metrics. */
export async function serveMetrics(res: ServerResponse, app: App): Promise<void> {
  const { contentType, body } = await app.metrics.exposition();
  sendText(res, 200, contentType, body);
}
