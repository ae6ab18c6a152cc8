import type { ServerResponse } from 'node:http';
import type { App } from '../app/create-app.ts';
import { sendJson, sendText } from './http-replies.ts';

/** /healthz: the process is up and serving HTTP. */
export function serveHealth(res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' });
}

/** /readyz: the database answers, so tool calls can be served. */
export async function serveReadiness(res: ServerResponse, app: App): Promise<void> {
  try {
    await app.db.query('SELECT 1 AS ok');
    sendJson(res, 200, { status: 'ready' });
  } catch (error) {
    app.logger.warn({ err: error }, 'readiness check failed');
    sendJson(res, 503, { status: 'unavailable', reason: 'database did not answer' });
  }
}

/** /metrics: Prometheus exposition of the gateway's metrics. */
export async function serveMetrics(res: ServerResponse, app: App): Promise<void> {
  const { contentType, body } = await app.metrics.exposition();
  sendText(res, 200, contentType, body);
}
