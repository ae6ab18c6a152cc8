import type { NumberSetting, ServeSetting } from './serve-settings.ts';

const DAY_SECONDS = 86_400;
const MIB = 1_048_576;

/** What a numeric setting accepts, as its refusal says it: "an integer from 1 to 1000". */
export function acceptedRange(setting: NumberSetting): string {
  const noun = setting.noun ?? 'an integer';
  if (setting.type === 'port') return `${noun} ${setting.min}-${setting.max}`;
  return `${noun} from ${setting.min}${setting.zeroTurnsOff ? ' (off)' : ''} to ${setting.max}`;
}

/** The default as people read it ("7776000, 90 days"), or undefined when there is none. */
export function defaultWords(setting: ServeSetting): string | undefined {
  if (setting.default === undefined) return undefined;
  if (setting.type === 'boolean') return setting.default ? 'on' : 'off';
  if (typeof setting.default === 'string') return setting.default;
  const value = setting.default;
  const gloss = glossOf(value, 'unit' in setting ? setting.unit : undefined);
  return gloss === undefined ? String(value) : `${value}, ${gloss}`;
}

function glossOf(value: number, unit: NumberSetting['unit']): string | undefined {
  if (unit === 's' && value % DAY_SECONDS === 0) {
    const days = value / DAY_SECONDS;
    return days === 1 ? '1 day' : `${days} days`;
  }
  if (unit === 'B/s' && value % MIB === 0) return `${value / MIB} MiB/s`;
  return undefined;
}

/** How the variable is written where it is named: on/off variables with the value that changes them. */
export function variableWords(setting: ServeSetting): string | undefined {
  if (setting.env === undefined) return undefined;
  if (setting.type !== 'boolean') return setting.env;
  return `${setting.env}=${setting.default ? '0' : '1'}`;
}

/** The option's line in `toolgate serve --help`: what it sets, its variable, its default and its range. */
export function helpLine(setting: ServeSetting): string {
  const byDefault = setting.type === 'boolean' ? undefined : defaultWords(setting);
  const notes = [variableWords(setting), byDefault === undefined ? undefined : `default ${byDefault}`];
  const said = notes.filter((note) => note !== undefined).join(', ');
  const range = 'min' in setting ? `${setting.min}-${setting.max}` : '';
  const parenthesis = [said, range].filter(Boolean).join('; ');
  return parenthesis === '' ? setting.description : `${setting.description} (${parenthesis})`;
}

/** What the setting accepts, as the README table says it. */
export function acceptedWords(setting: ServeSetting): string {
  switch (setting.type) {
    case 'boolean':
      return 'on/off';
    case 'port':
    case 'integer':
    case 'number': {
      const kind = setting.type === 'number' ? 'number' : 'integer';
      const unit = setting.unit === undefined ? '' : ` ${setting.unit}`;
      return `${kind} ${setting.min}-${setting.max}${unit}${setting.zeroTurnsOff ? '; 0: off' : ''}`;
    }
    case 'path':
      return 'directory';
    case 'url':
      return 'http(s) URL';
    case 'postgres-url':
      return 'postgres:// or postgresql:// URL';
    case 'list':
      return 'names, comma-separated';
    case 'string':
      return 'text';
  }
}
