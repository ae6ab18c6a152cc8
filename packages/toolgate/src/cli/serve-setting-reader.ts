import { z } from 'zod';
import type { ToolgateConfig } from '../config/define-config.ts';
import { acceptedRange } from '../config/serve-setting-words.ts';
import {
  type BooleanSetting,
  type NumberSetting,
  type RawServeSettings,
  SERVE_SETTINGS,
  type SettingNameOf,
  type TextSetting,
} from '../config/serve-settings.ts';

const httpUrl = z.url({ protocol: /^https?$/ });
const OFF_WORDS = ['0', 'false', 'no', 'off'];

/** A TOOLGATE_* variable's value; empty counts as unset. */
export function variable(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The value at a dotted config-file key (`rateLimit.perPrincipal`). */
function atKey(file: ToolgateConfig, key: string | undefined): unknown {
  if (key === undefined) return undefined;
  let value: unknown = file;
  for (const part of key.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Reads each setting from the flag, else its variable, else the config file; absent is undefined. */
export interface ServeSettingReader {
  /** A checked number; a bad one is recorded as a problem naming the flag, and reads as undefined. */
  number(name: SettingNameOf<NumberSetting>): number | undefined;
  /** A text; an http(s) or postgres:// URL is checked, a bad one recorded as a problem. */
  text(name: SettingNameOf<TextSetting>): string | undefined;
  /** An on/off setting; its variable is off for 0, false, no or off. */
  flag(name: SettingNameOf<BooleanSetting>): boolean | undefined;
  /** A list: comma-separated from the flag or variable, an array in the config file. */
  list(name: SettingNameOf<TextSetting>): readonly string[] | undefined;
}

/**
 * The one way `serve` reads a setting of SERVE_SETTINGS, with the precedence flag > variable > config
 * file. Every refusal goes to `problems`, so that one run names them all.
 */
export function serveSettingReader(
  raw: RawServeSettings,
  file: ToolgateConfig,
  problems: string[],
): ServeSettingReader {
  const given = (name: keyof RawServeSettings): unknown => {
    const setting = SERVE_SETTINGS[name];
    return raw[name] ?? variable(setting.env) ?? atKey(file, 'key' in setting ? setting.key : undefined);
  };
  return {
    number(name) {
      const setting: NumberSetting = SERVE_SETTINGS[name];
      const value = given(name) as string | number | undefined;
      if (value === undefined) return undefined;
      const parsed = Number(value);
      const fits =
        String(value).trim() !== '' &&
        Number.isFinite(parsed) &&
        (setting.type === 'number' || Number.isInteger(parsed)) &&
        parsed >= setting.min &&
        parsed <= setting.max;
      if (fits) return parsed;
      problems.push(`${setting.flag} ${value}: must be ${acceptedRange(setting)}`);
      return undefined;
    },
    text(name) {
      const setting: TextSetting = SERVE_SETTINGS[name];
      const value = given(name) as string | undefined;
      if (value === undefined) return undefined;
      if (setting.type === 'url' && !httpUrl.safeParse(value).success) {
        problems.push(`${setting.flag} ${value}: not an http(s) URL`);
      }
      // The URL may carry a password: the refusal does not repeat it.
      if (setting.type === 'postgres-url' && !/^postgres(ql)?:\/\//.test(value)) {
        problems.push(`${setting.flag}: must start with postgres:// or postgresql://`);
      }
      return value;
    },
    flag(name) {
      const setting: BooleanSetting = SERVE_SETTINGS[name];
      // Commander sets a `--no-...` option to true when it is not given: only the change counts.
      const flagged = raw[name] === !setting.default ? raw[name] : undefined;
      const fromVariable = variable(setting.env);
      const fromFile = atKey(file, 'key' in setting ? setting.key : undefined) as boolean | undefined;
      return (
        flagged ??
        (fromVariable === undefined ? undefined : !OFF_WORDS.includes(fromVariable.toLowerCase())) ??
        fromFile
      );
    },
    list(name) {
      const value = given(name) as string | readonly string[] | undefined;
      if (value === undefined) return undefined;
      const names = typeof value === 'string' ? value.split(',') : value;
      return names.map((entry) => entry.trim()).filter(Boolean);
    },
  };
}
