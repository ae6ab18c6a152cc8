import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import { README, settingsTable, withSettingsTable } from '../../../../scripts/settings-table.ts';
import { registerServeCommand } from '../../src/cli/serve-command.ts';
import { limitsSummary } from '../../src/cli/serve-limits.ts';
import { ConfigError, resolveServeConfig } from '../../src/cli/serve-options.ts';
import { serveSettingReader } from '../../src/cli/serve-setting-reader.ts';
import { configFileSchema } from '../../src/config/config-file-schema.ts';
import type { HttpLimitsConfig, RateLimitConfig, ToolgateConfig } from '../../src/config/define-config.ts';
import { acceptedRange } from '../../src/config/serve-setting-words.ts';
import {
  type ConfigFileSettings,
  type NumberSetting,
  type RawServeSettings,
  SERVE_SETTING_LIST,
  SERVE_SETTINGS,
  type ServeSetting,
  type ServeSettingName,
} from '../../src/config/serve-settings.ts';
import { DEFAULT_RETENTION_SECONDS } from '../../src/operations/framework-parts.ts';
import {
  DEFAULT_AUDIT_RETENTION_SECONDS,
  DEFAULT_CONFIRMATION_TTL_SECONDS,
} from '../../src/operations/operations-runtime.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const readme = readFileSync(README, 'utf8');
const byFlag = new Map(SERVE_SETTING_LIST.map(([name, setting]) => [setting.flag, { name, setting }]));
const numeric = SERVE_SETTING_LIST.filter(
  (entry): entry is [ServeSettingName, NumberSetting] => 'min' in entry[1],
);

/** A config file object holding `value` at the setting's dotted key. */
function fileWith(key: string, value: unknown): ToolgateConfig {
  return key.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as ToolgateConfig;
}

/** Three distinct values the setting accepts, as the flag or variable spells them and as the file holds them. */
function samplesOf(setting: ServeSetting): { text: string; file: unknown; read: unknown }[] {
  switch (setting.type) {
    case 'port':
    case 'integer':
    case 'number': {
      const middle = Math.floor((setting.min + setting.max) / 2);
      return [setting.min, middle, setting.max].map((n) => ({ text: String(n), file: n, read: n }));
    }
    case 'list':
      return ['a', 'b', 'c'].map((name) => ({ text: ` ${name}, x `, file: [name, 'x'], read: [name, 'x'] }));
    case 'url':
      return ['a', 'b', 'c'].map((h) => ({
        text: `https://${h}.example/mcp`,
        file: `https://${h}.example/mcp`,
        read: `https://${h}.example/mcp`,
      }));
    case 'postgres-url':
      return ['a', 'b', 'c'].map((h) => ({
        text: `postgres://${h}/db`,
        file: `postgres://${h}/db`,
        read: `postgres://${h}/db`,
      }));
    default:
      return ['a', 'b', 'c'].map((v) => ({ text: `/srv/${v}`, file: `/srv/${v}`, read: `/srv/${v}` }));
  }
}

describe('the settings table', () => {
  const parent = mkdtempSync(join(tmpdir(), 'toolgate-settings-'));
  const dataDir = join(parent, 'data');
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  test("the README's settings table is the one generated from it (npm run settings:update)", () => {
    expect(withSettingsTable(readme)).toBe(readme);
    for (const [, setting] of SERVE_SETTING_LIST)
      expect(settingsTable()).toContain(`| \`${setting.flag}\` |`);
  });

  test('every setting is a serve option of its flag, read under its own name', () => {
    const program = new Command();
    registerServeCommand(program);
    const serve = program.commands.find((command) => command.name() === 'serve')!;
    const options = new Map(serve.options.map((option) => [option.long, option]));
    for (const [name, setting] of SERVE_SETTING_LIST) {
      const option = options.get(setting.flag);
      expect(option, setting.flag).toBeDefined();
      // The resolution reads raw[name]: a flag whose attribute differs would be silently ignored.
      expect(option!.attributeName(), setting.flag).toBe(name);
      expect(option!.negate, setting.flag).toBe(setting.type === 'boolean' && setting.default);
      if (setting.env) expect(option!.description, setting.flag).toContain(setting.env);
    }
    expect(serve.options.length).toBe(SERVE_SETTING_LIST.length + 1);
  });

  test('each setting is read from its flag, else its variable, else its config key', () => {
    for (const [name, setting] of SERVE_SETTING_LIST) {
      const problems: string[] = [];
      const read = (raw: RawServeSettings, file: ToolgateConfig = {}) => {
        const reader = serveSettingReader(raw, file, problems);
        if (setting.type === 'boolean') return reader.flag(name as never);
        if (setting.type === 'list') return reader.list(name as never);
        return 'min' in setting ? reader.number(name as never) : reader.text(name as never);
      };
      if (setting.type === 'boolean') {
        const changed = !setting.default;
        // Commander hands over the default for a flag not given (true for --no-...).
        const notGiven = { [name]: setting.default ? true : undefined };
        expect(read(notGiven), name).toBeUndefined();
        expect(read({ [name]: changed }), name).toBe(changed);
        if (setting.key) expect(read(notGiven, fileWith(setting.key, changed)), name).toBe(changed);
        if (setting.env) {
          vi.stubEnv(setting.env, changed ? '1' : 'off');
          expect(read(notGiven, setting.key ? fileWith(setting.key, !changed) : {}), name).toBe(changed);
          vi.stubEnv(setting.env, changed ? 'no' : 'yes');
          expect(read({ [name]: changed }), name).toBe(changed);
        }
      } else {
        const [flag, variable, file] = samplesOf(setting);
        const fromFile = setting.key ? fileWith(setting.key, file!.file) : {};
        expect(read({}), name).toBeUndefined();
        if (setting.key) expect(read({}, fromFile), name).toEqual(file!.read);
        if (setting.env) {
          vi.stubEnv(setting.env, variable!.text);
          expect(read({}, fromFile), name).toEqual(variable!.read);
        }
        expect(read({ [name]: flag!.text }, fromFile), name).toEqual(flag!.read);
      }
      vi.unstubAllEnvs();
      expect(problems, name).toEqual([]);
    }
  });

  test('the config file takes each numeric setting within the bounds the flag takes, and refuses past them', () => {
    for (const [name, setting] of numeric) {
      const outside = [
        setting.min - 1,
        setting.max + 1,
        ...(setting.type === 'number' ? [] : [setting.min + 0.5]),
      ];
      for (const value of outside) {
        expect(() => resolveServeConfig({ dataDir, [name]: String(value) }), setting.flag).toThrow(
          `${setting.flag} ${value}: must be ${acceptedRange(setting)}`,
        );
        if (setting.key) {
          expect(
            configFileSchema.safeParse(fileWith(setting.key, value)).success,
            `${setting.key} ${value}`,
          ).toBe(false);
        }
      }
      if (setting.key) {
        for (const value of [setting.min, setting.max]) {
          expect(
            configFileSchema.safeParse(fileWith(setting.key, value)).success,
            `${setting.key} ${value}`,
          ).toBe(true);
          expect(() => resolveServeConfig({ dataDir }, fileWith(setting.key!, value))).not.toThrow();
        }
      }
    }
  });

  test('0 turns the rate limit off from the config file as it does from the flag (the file used to refuse it)', () => {
    const file = { rateLimit: { perPrincipal: 0 } };
    expect(configFileSchema.safeParse(file).success).toBe(true);
    expect(resolveServeConfig({ dataDir }, file).limits.perPrincipal).toBeUndefined();
    expect(resolveServeConfig({ dataDir }, { rateLimit: { perPrincipal: 7 } }).limits.perPrincipal).toBe(7);
  });

  test('every keyed setting has its place in the config file, and nothing else is a setting there', () => {
    const keyed = SERVE_SETTING_LIST.flatMap(([, s]) => (s.key ? [s.key.split('.')[0]!] : []));
    const members = Object.keys(configFileSchema.shape);
    expect(new Set(members)).toEqual(
      new Set([...keyed, 'tools', 'modules', 'exceptions', 'extensions', 'operations']),
    );
    expect(configFileSchema.safeParse({ rateLimit: { perSecond: 3 } }).success).toBe(false);
    // docs/api.md lists the members of ToolgateConfig.
    const row = readFileSync(join(ROOT, 'docs/api.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `ToolgateConfig` |'))!;
    const described = row.split('|')[3]!.split('Flags and')[0]!.replace('`serve`', 'serve');
    const listed = [...described.matchAll(/`([a-zA-Z]+)`/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(members));
  });

  test('the defaults the operations runtime applies are the ones the table states, and serve leaves them to it', () => {
    expect(SERVE_SETTINGS.retentionSeconds.default).toBe(DEFAULT_RETENTION_SECONDS);
    expect(SERVE_SETTINGS.auditRetentionSeconds.default).toBe(DEFAULT_AUDIT_RETENTION_SECONDS);
    expect(SERVE_SETTINGS.operatorConfirmationTtlSeconds.default).toBe(DEFAULT_CONFIRMATION_TTL_SECONDS);
    const config = resolveServeConfig({ dataDir });
    for (const [name, setting] of SERVE_SETTING_LIST) {
      if ('appliedByRuntime' in setting) expect(config[name as keyof typeof config], name).toBeUndefined();
    }
  });

  test('the Limits banner prints the defaults of the table and names only its flags', () => {
    const config = resolveServeConfig({ dataDir });
    const banner = limitsSummary(config, SERVE_SETTINGS.auditRetentionSeconds.default);
    const S = SERVE_SETTINGS;
    expect(banner).toContain(
      `${S.rateLimitPerPrincipal.default} requests/s, burst ${S.rateLimitPerPrincipal.default}`,
    );
    expect(banner).toContain(`${S.replyBytesPerSecondPerPrincipal.default} B/s`);
    expect(banner).toContain(
      `${S.maxWritesInFlightPerPrincipal.default} (${S.maxWritesInFlightPerPrincipal.flag})`,
    );
    expect(banner).toContain(
      `${S.maxConnections.default}; headers ${S.headersTimeoutMs.default} ms, request ${S.requestTimeoutMs.default} ms, keep-alive ${S.keepAliveTimeoutMs.default} ms`,
    );
    expect(banner).toContain(`at most ${S.maxTokenLifetimeSeconds.default} s`);
    expect(banner).toContain(
      `operations ${S.retentionSeconds.default} s, audit ${S.auditRetentionSeconds.default} s`,
    );
    const flags = [...banner.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((flag) => !byFlag.has(flag as `--${string}`))).toEqual([]);
  });

  test('the README and docs spell each default, variable, key and range where they name a flag as the table does', () => {
    const generated = readme.indexOf('<!-- serve-settings:begin');
    const prose = [
      readme.slice(0, generated) + readme.slice(readme.indexOf('<!-- serve-settings:end')),
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => readFileSync(join(ROOT, 'docs', name), 'utf8')),
    ].join('\n');
    const mismatches: string[] = [];
    let checked = 0;
    // `--flag N` (default **100**; `TOOLGATE_X`, `key` in the config, 1-1000), or (`--flag`, ...; 1-1000)
    const mentions = /`(--[a-z-]+)(?: [A-Z]+)?` \(([^()]*)\)|\(`(--[a-z-]+)(?: [A-Z]+)?`([^()]*)\)/g;
    for (const match of prose.replaceAll('\n', ' ').matchAll(mentions)) {
      const flag = (match[1] ?? match[3]) as `--${string}`;
      const words = match[2] ?? match[4] ?? '';
      const entry = byFlag.get(flag);
      if (!entry) continue;
      const { setting } = entry;
      const stated = /^(?:default )?\**(\d+)\**/.exec(words)?.[1];
      if (stated !== undefined && Number(stated) !== setting.default)
        mismatches.push(`${flag}: default ${stated}`);
      for (const [variable] of words.matchAll(/TOOLGATE_[A-Z_]+/g)) {
        if (variable !== setting.env) mismatches.push(`${flag}: variable ${variable}`);
      }
      for (const [, key] of words.matchAll(/`([a-zA-Z.]+)` in the config/g)) {
        if (key !== setting.key) mismatches.push(`${flag}: config key ${key}`);
      }
      for (const [, min, max] of words.matchAll(/\b(\d+)-(\d+)\b/g)) {
        if (!('min' in setting) || Number(min) !== setting.min || Number(max) !== setting.max)
          mismatches.push(`${flag}: range ${min}-${max}`);
      }
      checked += 1;
    }
    expect(mismatches).toEqual([]);
    // The prose names the limits with their defaults; a pattern that matched nothing would check nothing.
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  test("define-config's doc comments state the defaults of the table", () => {
    const source = readFileSync(join(ROOT, 'packages/toolgate/src/config/define-config.ts'), 'utf8');
    const docs = new Map(
      [...source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*readonly (\w+)\?/g)].map((m) => [m[2]!, m[1]!]),
    );
    const stated: string[] = [];
    for (const [, setting] of SERVE_SETTING_LIST) {
      if (!setting.key || setting.default === undefined) continue;
      const doc = docs.get(setting.key.split('.').at(-1)!) ?? '';
      const said = /default ([^);,\s]+)/.exec(doc)?.[1];
      if (said === undefined) continue;
      stated.push(setting.key);
      expect(said, setting.key).toBe(String(setting.default));
    }
    expect(stated.length).toBeGreaterThanOrEqual(10);
  });

  test('a setting of the table refused by the resolution is a ConfigError naming the flag', () => {
    vi.stubEnv(SERVE_SETTINGS.maxConnections.env, '0');
    expect(() => resolveServeConfig({ dataDir })).toThrow(ConfigError);
    expect(() => resolveServeConfig({ dataDir })).toThrow(
      `${SERVE_SETTINGS.maxConnections.flag} 0: must be an integer from 1 to 1000000`,
    );
  });

  test('ToolgateConfig types each setting at its key as the table does, and has no other settings', () => {
    type At<T, P extends string> = P extends `${infer Head}.${infer Rest}`
      ? Head extends keyof T
        ? At<NonNullable<T[Head]>, Rest>
        : never
      : P extends keyof T
        ? NonNullable<T[P]>
        : never;
    type Typed = { [P in keyof ConfigFileSettings]: At<ToolgateConfig, P> };
    expectTypeOf<Typed>().toEqualTypeOf<ConfigFileSettings>();
    type Keys = keyof ConfigFileSettings;
    type Top = Keys extends infer K ? (K extends `${infer Head}.${string}` ? Head : K) : never;
    type Under<Group extends string> = Keys extends infer K
      ? K extends `${Group}.${infer Leaf}`
        ? Leaf
        : never
      : never;
    expectTypeOf<
      Exclude<keyof ToolgateConfig, Top | 'tools' | 'modules' | 'exceptions' | 'extensions' | 'operations'>
    >().toBeNever();
    expectTypeOf<Exclude<keyof RateLimitConfig, Under<'rateLimit'> | 'byKind'>>().toBeNever();
    expectTypeOf<Exclude<keyof HttpLimitsConfig, Under<'http'>>>().toBeNever();
  });
});
