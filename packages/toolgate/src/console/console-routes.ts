import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sendJson } from '../transport/http-replies.ts';
import { HttpRouter } from '../transport/http-router.ts';
import type { PublicRouteFamily } from '../transport/http-server.ts';
import { CONSOLE_CSS, CONSOLE_HTML } from './console-page.ts';

export const CONSOLE_PATH = '/console';

// The page runs only its own script and talks only to this origin; it may not be framed.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

interface Asset {
  readonly type: string;
  readonly body: string;
}

/**
 * The console's browser modules as `npm run build` compiled them (src/console/browser/ to
 * dist/console/browser/): beside this module in the package, and in the checkout's dist/ when this
 * module runs from its TypeScript source, so that both serve the same compiled script.
 */
const BROWSER_DIR = new URL(
  import.meta.url.endsWith('.ts') ? '../../dist/console/browser/' : './browser/',
  import.meta.url,
);

let assets: Readonly<Record<string, Asset>> | undefined;

/** The page, its style and its scripts, read once: the scripts from their compiled files. */
function consoleAssets(): Readonly<Record<string, Asset>> {
  if (assets) return assets;
  const script = (name: string): Asset => {
    const file = fileURLToPath(new URL(name, BROWSER_DIR));
    if (!existsSync(file)) {
      throw new Error(`the console's script ${file} is missing: \`npm run build\` compiles it`);
    }
    return { type: 'text/javascript; charset=utf-8', body: readFileSync(file, 'utf8') };
  };
  const page = { type: 'text/html; charset=utf-8', body: CONSOLE_HTML };
  assets = {
    [CONSOLE_PATH]: page,
    [`${CONSOLE_PATH}/`]: page,
    [`${CONSOLE_PATH}/app.js`]: script('app.js'),
    [`${CONSOLE_PATH}/app.css`]: { type: 'text/css; charset=utf-8', body: CONSOLE_CSS },
    [`${CONSOLE_PATH}/charts.js`]: script('charts.js'),
  };
  return assets;
}

/**
 * The operator console: a static page and its script, served without a token because they hold no
 * data; every datum comes from /operator/v1 with the bearer token the operator pastes in.
 */
export function consoleRoutes(): PublicRouteFamily {
  const routes = new HttpRouter<Asset>();
  for (const [path, asset] of Object.entries(consoleAssets())) {
    routes.on('GET', path, asset).on('HEAD', path, asset);
  }
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
