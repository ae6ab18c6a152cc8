import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  acceptedWords,
  defaultWords,
  variableWords,
} from '../packages/toolgate/src/config/serve-setting-words.ts';
import { SERVE_SETTING_LIST } from '../packages/toolgate/src/config/serve-settings.ts';

export const README = join(import.meta.dirname, '../README.md');
const BEGIN =
  '<!-- serve-settings:begin (generated from packages/toolgate/src/config/serve-settings.ts: npm run settings:update) -->';
const END = '<!-- serve-settings:end -->';

const code = (text: string | undefined) => (text === undefined ? '—' : `\`${text}\``);

/** The README's settings table, one row per entry of SERVE_SETTINGS, in its order. */
export function settingsTable(): string {
  const rows = SERVE_SETTING_LIST.map(([, setting]) =>
    [
      code(setting.flag),
      code(variableWords(setting)),
      code(setting.key),
      defaultWords(setting) ?? '—',
      acceptedWords(setting),
      setting.description.replaceAll('|', '\\|'),
    ].join(' | '),
  );
  return [
    '| Flag | Variable | Config key | Default | Accepts | Sets |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** `readme` with the text between the markers replaced by the generated table. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README has no ${BEGIN} ... ${END} block`);
  return `${readme.slice(0, start + BEGIN.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

// `--check` exits 1 when the README's table is not the generated one; without it, rewrites it.
if (process.argv[1] === import.meta.filename) {
  const readme = readFileSync(README, 'utf8');
  const generated = withSettingsTable(readme);
  if (process.argv.includes('--check')) {
    if (generated !== readme) {
      process.stderr.write('README.md: the settings table is stale; run npm run settings:update\n');
      process.exit(1);
    }
  } else if (generated !== readme) {
    writeFileSync(README, generated);
  }
}
