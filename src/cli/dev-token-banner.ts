import { type DemoIntroduction, type DemoPrincipal, demoTokenSubject } from '../app/module.ts';
import type { DevKeys } from '../auth/dev-keys.ts';
import { mintToken } from '../auth/mint-token.ts';
import type { TokenSubject } from '../auth/token-claims.ts';
import { DEFAULT_TOKEN_TTL_SECONDS } from '../auth/token-defaults.ts';

/** The operator token minted for the test API (scope test:control only). */
export const TEST_CONTROL_SUBJECT: TokenSubject & { name: string } = {
  name: 'test_controller',
  sub: 'dev_test_controller',
  tenant: 'dev',
  actor: 'operator',
  scopes: ['test:control'],
};

const subjectOf = demoTokenSubject;

/**
 * What `toolgate serve` prints on start, kept to one screen: where to connect, one ready token with a
 * first call to paste into MCP Inspector, a few demo ids, and where the other tokens are.
 */
export async function devTokenBanner(
  url: string,
  principals: readonly DemoPrincipal[],
  keys: DevKeys | null,
  introductions: readonly DemoIntroduction[],
  /** `--data-dir D` when the server does not use the default data dir, for the commands it suggests. */
  dataDirOption = '',
): Promise<string> {
  const lines = [`toolgate: MCP Streamable HTTP at ${url}`];
  const consoleUrl = url.replace(/\/mcp$/, '/console');
  if (!keys) {
    lines.push('Tokens come from the configured issuer (JWKS); no dev tokens are printed.');
    lines.push(`Operator console: ${consoleUrl}`);
    return `${lines.join('\n')}\n`;
  }
  const first = introductions[0];
  const principal = principals.find((p) => p.name === first?.principal) ?? principals[0];
  if (!principal) {
    // A config's own tools have no demo identities: say how to mint one for this very server.
    lines.push(
      'Mint a dev token for this server (same data dir):',
      `  npx toolgate token --sub S --tenant T --actor A --scopes "a b" --audience ${url}${dataDirOption}`,
      `Operator console: ${consoleUrl}`,
    );
    return `${lines.join('\n')}\n`;
  }
  const token = await mintToken(keys, subjectOf(principal), { audience: url });
  const hours = DEFAULT_TOKEN_TTL_SECONDS / 3600;
  lines.push(
    '',
    `Try it as ${principal.name} (${principal.actor}, tenant ${principal.tenant}; scopes ${principal.scopes.join(' ')}),`,
    `with this dev token (valid ${hours} h):`,
    '',
    `  TOKEN=${token}`,
  );
  const call = first?.firstCall;
  const inspector = `npx @modelcontextprotocol/inspector --cli ${url} --transport http --header "Authorization: Bearer $TOKEN"`;
  lines.push('', `  ${inspector} --method tools/list`);
  if (call) {
    const args = Object.entries(call.arguments).map(([name, value]) => ` --tool-arg ${name}=${value}`);
    lines.push(`  ${inspector} --method tools/call --tool-name ${call.tool}${args.join('')}`);
  }
  const ids = introductions.flatMap((i) => i.ids);
  if (ids.length > 0) lines.push('', 'Demo ids:', ...ids.map((id) => `  ${id}`));
  lines.push(
    '',
    // demo tokens also lists the test API's controller: the count says what the command prints.
    `Tokens for the ${principals.length} demo principals and the test API controller (${principals.length + 1} in all): npx toolgate demo tokens --audience ${url}${dataDirOption}`,
    'Any other identity: npx toolgate token --sub S --tenant T --actor A --scopes "a b"',
    `Operator console: ${consoleUrl}`,
  );
  return `${lines.join('\n')}\n`;
}

/** A dev token per demo principal, plus the test API's controller: what `toolgate demo tokens` prints. */
export async function demoTokenList(
  url: string,
  principals: readonly DemoPrincipal[],
  keys: DevKeys,
): Promise<string> {
  const lines = [`Dev tokens for ${url} (valid ${DEFAULT_TOKEN_TTL_SECONDS / 3600} h):`, ''];
  const subjects = [
    ...principals.map((p) => ({ ...subjectOf(p), name: p.name, about: p.description })),
    { ...TEST_CONTROL_SUBJECT, about: 'the test API (serve --enable-test-api)' },
  ];
  for (const subject of subjects) {
    const token = await mintToken(keys, subject, { audience: url });
    lines.push(
      `  ${subject.name} (${subject.actor}, tenant ${subject.tenant}): ${subject.scopes.join(' ') || '-'}`,
      `    ${subject.about}`,
      `    ${token}`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
