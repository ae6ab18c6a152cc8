import { sendJson } from '../transport/http-replies.ts';
import { HttpRouter } from '../transport/http-router.ts';
import type { PublicRouteFamily } from '../transport/http-server.ts';
import { CONSOLE_CHARTS_JS } from './console-charts-script.ts';
import { CONSOLE_CSS, CONSOLE_HTML } from './console-page.ts';
import { CONSOLE_JS } from './console-script.ts';

export const CONSOLE_PATH = '/console';

// The page runs only its own script and talks only to this origin; it may not be framed.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const ASSETS: Record<string, { type: string; body: string }> = {
  [CONSOLE_PATH]: { type: 'text/html; charset=utf-8', body: CONSOLE_HTML },
  [`${CONSOLE_PATH}/`]: { type: 'text/html; charset=utf-8', body: CONSOLE_HTML },
  [`${CONSOLE_PATH}/app.js`]: { type: 'text/javascript; charset=utf-8', body: CONSOLE_JS },
  [`${CONSOLE_PATH}/app.css`]: { type: 'text/css; charset=utf-8', body: CONSOLE_CSS },
  [`${CONSOLE_PATH}/charts.js`]: { type: 'text/javascript; charset=utf-8', body: CONSOLE_CHARTS_JS },
};

type Asset = (typeof ASSETS)[string];

const routes = new HttpRouter<Asset>();
for (const [path, asset] of Object.entries(ASSETS)) routes.on('GET', path, asset).on('HEAD', path, asset);

/**
 * The operator console: a static page and its script, served without a token because they hold no
 * data; every datum comes from /operator/v1 with the bearer token the operator pastes in.
 */
export function consoleRoutes(): PublicRouteFamily {
  return {
    prefix: CONSOLE_PATH,
    async handle({ req, res, url }) {
      const route = routes.match(req.method ?? 'GET', url.pathname);
      if (!route) return sendJson(res, 404, { error: 'not_found' });
      const asset = route.handler;
      res.writeHead(200, {
        'content-type': asset.type,
        'content-length': Buffer.byteLength(asset.body),
        ...SECURITY_HEADERS,
      });
      res.end(req.method === 'HEAD' ? undefined : asset.body);
    },
  };
}
