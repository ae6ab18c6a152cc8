import type { DemoPrincipal } from '../app/module.ts';
import type { DevKeys } from '../auth/dev-keys.ts';
import { mintToken } from '../auth/mint-token.ts';
import type { TokenSubject } from '../auth/token-claims.ts';
import { DEFAULT_TOKEN_TTL_SECONDS } from '../auth/token-defaults.ts';

/** The operator token printed for the test API (scope test:control only). */
const TEST_CONTROL_SUBJECT: TokenSubject & { name: string } = {
  name: 'test_controller',
  sub: 'dev_test_controller',
  tenant: 'dev',
  actor: 'operator',
  scopes: ['test:control'],
};

/**
 * What `toolgate serve` prints on start: where to connect and a ready-made token per demo principal,
 * so a newcomer can paste one into a client without another command.
 */
export async function devTokenBanner(
  url: string,
  principals: readonly DemoPrincipal[],
  keys: DevKeys | null,
): Promise<string> {
  const lines = [`toolgate: MCP Streamable HTTP at ${url}`];
  if (!keys) {
    lines.push('Tokens come from the configured issuer (JWKS); no dev tokens are printed.');
    return `${lines.join('\n')}\n`;
  }
  if (principals.length === 0) {
    // A config's own tools have no demo identities: say how to mint one for this very server.
    lines.push(
      'Mint a dev token for this server (same data dir):',
      `  npx toolgate token --sub S --tenant T --actor A --scopes "a b" --audience ${url}`,
    );
    return `${lines.join('\n')}\n`;
  }
  const hours = DEFAULT_TOKEN_TTL_SECONDS / 3600;
  lines.push(`Dev tokens (valid ${hours} h; send as "Authorization: Bearer <token>"):`, '');
  const subjects = principals.map((p) => ({
    name: p.name,
    sub: p.subject,
    tenant: p.tenant,
    actor: p.actor,
    scopes: p.scopes,
  }));
  subjects.push({
    ...TEST_CONTROL_SUBJECT,
    name: `${TEST_CONTROL_SUBJECT.name} (test API, --enable-test-api)`,
  });
  for (const subject of subjects) {
    const token = await mintToken(keys, subject, { audience: url });
    lines.push(
      `  ${subject.name} (${subject.actor}, tenant ${subject.tenant}): ${subject.scopes.join(' ') || '-'}`,
    );
    lines.push(`    ${token}`, '');
  }
  lines.push('Other tokens: npx toolgate token --sub S --tenant T --actor A --scopes "a b"');
  return `${lines.join('\n')}\n`;
}
