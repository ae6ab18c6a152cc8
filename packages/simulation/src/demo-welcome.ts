import {
  type App,
  DEFAULT_TOKEN_TTL_SECONDS,
  type DevKeys,
  mintToken,
  type TokenSubject,
} from 'toolgate/server';
import { simulationOf } from './app-simulation.ts';
import { type DemoPrincipal, demoTokenSubject } from './simulation-hooks.ts';

/** The operator token minted for the test API (scope test:control only). */
export const TEST_CONTROL_SUBJECT: TokenSubject & { name: string } = {
  name: 'test_controller',
  sub: 'dev_test_controller',
  tenant: 'dev',
  actor: 'operator',
  scopes: ['test:control'],
};

/**
 * The start-up banner's lines for the simulated world of `app`: one ready token with a first call to
 * paste into MCP Inspector, a few demo ids, and where the other tokens are. Null when the app has no
 * demo principals.
 */
export async function demoWelcome(
  app: App,
  url: string,
  keys: DevKeys,
  /** `--data-dir D` when the server does not use the default data dir, for the commands it suggests. */
  dataDirOption: string,
): Promise<string[] | null> {
  const simulation = simulationOf(app);
  const { principals } = simulation;
  const introductions = simulation.introductions();
  const first = introductions[0];
  const principal = principals.find((p) => p.name === first?.principal) ?? principals[0];
  if (!principal) return null;
  const token = await mintToken(keys, demoTokenSubject(principal), { audience: url });
  const hours = DEFAULT_TOKEN_TTL_SECONDS / 3600;
  const lines = [
    '',
    `Try it as ${principal.name} (${principal.actor}, tenant ${principal.tenant}; scopes ${principal.scopes.join(' ')}),`,
    `with this dev token (valid ${hours} h):`,
    '',
    `  TOKEN=${token}`,
  ];
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
  );
  return lines;
}

/** A dev token per demo principal, plus the test API's controller: what `toolgate demo tokens` prints. */
export async function demoTokenList(
  url: string,
  principals: readonly DemoPrincipal[],
  keys: DevKeys,
): Promise<string> {
  const lines = [`Dev tokens for ${url} (valid ${DEFAULT_TOKEN_TTL_SECONDS / 3600} h):`, ''];
  const subjects = [
    ...principals.map((p) => ({ ...demoTokenSubject(p), name: p.name, about: p.description })),
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
