import type { DevKeys } from '../auth/dev-keys.ts';

/**
 * What `toolgate serve` prints on start, kept to one screen: where to connect, then the extensions'
 * welcome (the simulation kit's: a ready token, a first call, demo ids) or how to mint a token, and
 * where the operator console is.
 */
export function devTokenBanner(
  url: string,
  keys: DevKeys | null,
  demo: readonly string[] | null,
  /** `--data-dir D` when the server does not use the default data dir, for the commands it suggests. */
  dataDirOption = '',
): string {
  const lines = [`toolgate: MCP Streamable HTTP at ${url}`];
  if (!keys) lines.push('Tokens come from the configured issuer (JWKS); no dev tokens are printed.');
  else if (demo) lines.push(...demo);
  else {
    // A config's own tools have no demo identities: say how to mint one for this very server.
    lines.push(
      'Mint a dev token for this server (same data dir):',
      `  npx toolgate token --sub S --tenant T --actor A --scopes "a b" --audience ${url}${dataDirOption}`,
    );
  }
  lines.push(`Operator console: ${url.replace(/\/mcp$/, '/console')}`);
  return `${lines.join('\n')}\n`;
}
