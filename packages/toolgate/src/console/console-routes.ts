import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendJson } from '../transport/http-replies.ts';
import { HttpRouter } from '../transport/http-router.ts';
import type { PublicRouteFamily } from '../transport/http-server.ts';
import { CONSOLE_HTML } from './console-page.ts';
import { CONSOLE_CSS } from './console-style.ts';

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

/** The entry module the page loads; it imports the others by their relative names. */
const ENTRY = 'app.js';

/** Every compiled browser module, by its path under the browser directory (`app.js`, `views/home.js`). */
function browserModules(): string[] {
  const dir = fileURLToPath(BROWSER_DIR);
  if (!existsSync(join(dir, ENTRY))) {
    throw new Error(`the console's script ${join(dir, ENTRY)} is missing: \`npm run build\` compiles it`);
  }
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split(sep).join('/'))
    .filter((name) => name.endsWith('.js'))
    .sort();
}

/** The page, its style and its scripts, read once: the scripts from their compiled files. */
function consoleAssets(): Readonly<Record<string, Asset>> {
  if (assets) return assets;
  const page = { type: 'text/html; charset=utf-8', body: CONSOLE_HTML };
  const scripts = browserModules().map((name): [string, Asset] => [
    `${CONSOLE_PATH}/${name}`,
    {
      type: 'text/javascript; charset=utf-8',
      body: readFileSync(fileURLToPath(new URL(name, BROWSER_DIR)), 'utf8'),
    },
  ]);
  assets = {
    [CONSOLE_PATH]: page,
    [`${CONSOLE_PATH}/`]: page,
    [`${CONSOLE_PATH}/app.css`]: { type: 'text/css; charset=utf-8', body: CONSOLE_CSS },
    ...Object.fromEntries(scripts),
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
